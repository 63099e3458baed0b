// Package executor is the executor process: it obtains its GPU addresses,
// registers with the driver over an authenticated, encrypted channel, runs
// each task contained (package contain: nothing the task starts outlives
// it) with exactly its GPUs visible, reports status, and exits when the
// driver is gone. A launcher starts it with a Launch (launch.go).
//
// # Outliving the driver
//
// With a Launch's RejoinTimeout (SPINDLE_EXECUTOR_REJOIN_TIMEOUT) an
// executor whose driver connection ends without a Shutdown keeps its
// tasks running and waits that long for the application's next
// ApplicationMaster attempt (rejoin.go): it listens on a port of its own,
// which every Register names, for the new driver to dial; registers again
// over that connection, rejoining, with the attempts it still runs; and,
// accepted, serves it as its first, sending first the statuses held while
// it had none (status_sender.go). Refused, or with no driver in time, it
// stops every task and exits.
//
// # GPU addresses
//
// DiscoverGPUs finds an executor's addresses, in order of preference: what
// its launcher gave it (SPINDLE_EXECUTOR_GPU_ADDRESSES or
// SPINDLE_EXECUTOR_RESOURCES_FILE), in a YARN container the GPUs its
// NodeManager assigned it (asked over the NodeManager's REST API), what
// the container runtime exposes (NVIDIA_VISIBLE_DEVICES,
// CUDA_VISIBLE_DEVICES), a Spark-compatible discovery script, and last the
// indices the ApplicationMaster picked (SPINDLE_EXECUTOR_AM_GPU_INDICES).
// Fewer than wanted is an error, and the executor does not register. In
// local mode WorkerGPUs reads the machine's addresses from the
// spindle.worker.* keys and SplitDisjoint deals them out.
//
// Every Config.GPUSampleInterval an executor with GPUs asks nvidia-smi
// what they are doing and sends the figures (package gpuuse) to its
// driver in a heartbeat (gpu_sampler.go); without nvidia-smi it has none,
// and works as before.
//
// The JSON formats are Apache Spark's (resources.go): a discovery script
// prints one ResourceInformation, a resources file lists
// ResourceAllocations, and each task gets its ResourceInformation map in
// the file named by SPINDLE_RESOURCES_FILE (WriteTaskResourcesFile).
//
// Told its container is going back to YARN (wire.Drain), an executor has
// each running task checkpoint and stop (preempt.go): SPINDLE_PREEMPTED=1
// into the file SPINDLE_PREEMPTED_FILE names, then SIGTERM, then SIGKILL
// after the drain's grace period; each attempt ends KILLED.
//
// # Running tasks
//
// Start runs a TaskSpec under a guard (package contain), with the
// executor's environment less what is reserved (InheritedEnvironment:
// every SPINDLE_* variable and the GPU visibility variables), then the
// task's own (TaskEnvironment). Kill stops the whole tree, grandchildren
// that ignore SIGTERM or left the process group included; when a task's
// main process exits, whatever it left running is killed too; and if the
// executor dies, however, its guards end their trees. On YARN ReadSecret
// removes the application secret from the container's credentials file,
// which tasks inherit. The runner is Linux-only.
//
// A caller runs a task so:
//
//	file := filepath.Join(logDir, id+".resources.json")
//	if err := executor.WriteTaskResourcesFile(file, gpus); err != nil { … }
//	env := append(jobEnv, executor.TaskEnvironment(ident, gpus, file, preempted)...)
//	t, err := executor.Start(executor.TaskSpec{Argv: argv, Env: env,
//		StdoutPath: filepath.Join(logDir, id+".stdout"),
//		StderrPath: filepath.Join(logDir, id+".stderr"), MaxOutput: capBytes})
//	if err != nil { /* report FAILED with err.Error() */ }
//	go func() { <-cancelled; t.Kill() }()
//	res := t.Wait() // res.ExitCode, res.Signal, res.StdoutCut
//
// # Task files
//
// Serve names an attempt's files by its job, its stage's place in the
// job, its index and its attempt (package tasklog), and keeps account of
// them job by job (task_files.go): told by a session's driver which jobs
// ended (wire.JobsEnded), it removes the oldest ended jobs' files beyond
// its Config.TaskLogs, never a running job's.
package executor
