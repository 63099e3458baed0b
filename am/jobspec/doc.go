// Package jobspec reads job specs: the YAML (or JSON, which is YAML) file
// `spindle submit JOB.yaml` runs, into a checked Job; and builds the
// one-stage Job of `spindle submit --tasks N -- COMMAND ARGS...` (Short).
//
//	name: resnet-inference
//	pool: production                 # optional; else Defaults.Pool, else "default"
//	stages:
//	  - name: shard
//	    tasks: 64
//	    command: ["python3", "infer.py", "--shard", "{{.Index}}", "--of", "{{.Count}}"]
//	    resources: {cpus: 1, memory: 2g, gpus: 0.5}
//	    maxAttempts: 4
//	    env: {MODEL: resnet50}
//	    preferredHosts: []           # optional locality hint
//	  - name: merge
//	    after: [shard]
//	    tasks: 1
//	    command: "python3 merge.py"  # a string runs under /bin/sh -c
//	    resources: {cpus: 1}
//
// # Fields
//
// name (required): the job's name. pool: its fair-scheduler pool. stages
// (required, at least one), each with:
//
//   - name (required, unique in the job);
//   - tasks: a whole number, at least 1; required unless the stage has
//     an input, and refused beside one;
//   - input: {paths: [...], split: ...}, what the stage reads
//     (docs/data.md): paths are URIs (hdfs://nn/data/*.parquet,
//     file:///data) or absolute paths on the default filesystem, globs
//     allowed, a list or one string; split is file (the default: a task
//     for each file), block (a task for each block), {files: N} (N files a
//     task) or {bytes: SIZE} (files packed into tasks of about SIZE, 256m
//     or a byte count, a larger file cut at its blocks). The listing,
//     not the spec, makes the stage's task count (Stage.Tasks is 0 until
//     Job.SetInputTasks), and its splits' blocks its hosts: preferredHosts
//     is refused beside it;
//   - command or builtin, exactly one: command is a list (the argv) or a
//     string (run as /bin/sh -c STRING); builtin: noop completes a task
//     inside the executor without a process, measuring Spindle's own
//     overhead;
//   - after: names of stages of the same job that must succeed first;
//   - resources: cpus, a whole number at least 1 (default Defaults.CPUs);
//     memory, a size such as 512m or 2g, or a number of MiB; gpus, a whole
//     number, a fraction in (0,1) of one GPU shared with other tasks, or 0
//     for none (default Defaults.GPUs); any other key names an accelerator
//     besides GPUs (fpga: 2), a whole number of its addresses per task
//     that replaces the application's spindle.task.resource.NAME.amount
//     (0: none), at most 4 kinds (Stage.Accels, Stage.TaskAccels);
//   - maxAttempts: from 1 to 100 (default Defaults.MaxAttempts): attempts
//     a task has, failed attempts retried after a growing backoff;
//   - env: variable names to values; a value that is a number or a boolean
//     is its text; SPINDLE_* and the GPU visibility variables (CUDA_,
//     NVIDIA_, HIP_, ROCR_VISIBLE_DEVICES) and the rendezvous variables
//     (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR,
//     MASTER_PORT) are Spindle's to set;
//   - preferredHosts: hosts to wait for a while before running elsewhere;
//   - gang: true starts every task of the stage together or none, each
//     with rendezvous variables (RANK, WORLD_SIZE, MASTER_ADDR, ...;
//     docs/gangs.md); a gang takes no preferredHosts;
//   - nodeLabel: the YARN node label its executors are asked on;
//   - placement: spread, pack or {maxPerNode: N}, where its executors go
//     beside each other on YARN, in place of the application's
//     (spindle.yarn.executor.placement, .maxPerNode). A stage naming a
//     label or a placement runs on executors of its own (docs/yarn.md,
//     "Per-stage placement").
//
// A key whose value is null (`maxAttempts:`) counts as absent. Names have
// no control characters and at most 256 bytes.
//
// # Templates
//
// Command elements and env values are Go text/template templates run for
// each task with a Task: {{.Index}} (from 0), {{.Count}}, {{.Attempt}}
// (from 0), {{.Stage}}, {{.Job}}. Loading parses every template, refuses
// fields a Task does not have, and tries each on the stage's first task, so
// that a mistake fails the submit rather than every task; one that fails
// only for a later task or attempt fails its job then, without retrying. {{range}} and
// {{template}} are refused, since they could run without bound, and an
// expansion may not exceed 128 KiB (Linux's limit on one argument).
// Stage.TaskCommand and Stage.TaskEnv expand them.
//
// # Strictness
//
// Every error names source:line: field, the value when there is one, and
// what is wrong with it, e.g.
//
//	job.yaml:7: stages[0].resources.gpus: "lots": not a number
//	job.yaml:9: stages[0]: unknown key "cpus"; it belongs under resources
//
// An unknown key is an error (with a did-you-mean), as are a duplicate key,
// a value of the wrong type, an empty file, a second YAML document, an
// explicit tag (!!int), a merge key (<<) and after lists naming missing
// stages, a stage itself, a stage twice, or a cycle. Parse reports all the
// problems it finds, in line order, up to 20. Anchors and aliases work;
// an error inside an aliased value names the line of the anchor's value.
//
// Bounds keep hostile input cheap: a spec of at most 1 MiB, 512Ki values
// with aliases expanded, 10 million tasks in a job, 100 attempts a task.
package jobspec
