package wire

import "fmt"

// launchMarker stands for task data an impostor must never see.
const launchMarker = "TOP-SECRET-TASK-ARGUMENT-7f3a"

func launchBatch(n int) *Envelope {
	b := &LaunchBatch{}
	for i := range n {
		b.Launches = append(b.Launches, &Launch{
			StageId: 7, TaskIndex: int32(i), Attempt: 1, Job: "resnet-inference", Stage: "shard", TaskCount: int32(n),
			Argv:         []string{"python3", "infer.py", "--shard", fmt.Sprint(i), launchMarker},
			Env:          []*EnvVar{{Name: "MODEL", Value: "resnet50"}},
			GpuAddresses: []string{fmt.Sprint(i % 4)},
			Cpus:         1,
		})
	}
	return &Envelope{Message: &Envelope_LaunchBatch{LaunchBatch: b}}
}

func statusBatch(n int) *Envelope {
	b := &StatusBatch{}
	for i := range n {
		b.Statuses = append(b.Statuses, &Status{
			StageId: 7, TaskIndex: int32(i), Attempt: 1, State: Status_SUCCEEDED,
			StartUnixNanos: 1_700_000_000_000_000_000, EndUnixNanos: 1_700_000_000_000_500_000,
		})
	}
	return &Envelope{Message: &Envelope_StatusBatch{StatusBatch: b}}
}

func register(id string) *Envelope {
	return &Envelope{Message: &Envelope_Register{Register: &Register{
		ExecutorId: id, Host: "node-1.example.com", Cores: 8, GpuAddresses: []string{"0", "1"}, Pid: 4242,
	}}}
}

// everyMessage holds one envelope of each kind.
func everyMessage() []*Envelope {
	return []*Envelope{
		register("container_1_0001_01_000002"),
		// An executor that outlived its driver, registering with the next.
		{Message: &Envelope_Register{Register: &Register{ExecutorId: "container_1_0001_01_000002", Host: "node-1.example.com", Cores: 8,
			GpuAddresses: []string{"0", "1"}, Pid: 4242, RejoinAddress: "node-1.example.com:40123", Rejoining: true,
			Running: []*RunningAttempt{{JobId: 3, StageId: 7, StageIndex: 1, TaskIndex: 2, Attempt: 0, GpuAddresses: []string{"1"}, Cpus: 2,
				StartUnixNanos: 1_700_000_000_000_000_000}}}}},
		{Message: &Envelope_Registered{Registered: &Registered{}}},
		{Message: &Envelope_Rejected{Rejected: &Rejected{Reason: "unknown executor id"}}},
		launchBatch(3),
		{Message: &Envelope_LaunchBatch{LaunchBatch: &LaunchBatch{Launches: []*Launch{{StageId: 1, Builtin: "noop", TaskCount: 1}}}}},
		{Message: &Envelope_Kill{Kill: &Kill{StageId: 7, TaskIndex: 2, Attempt: 1, Reason: "speculative copy won"}}},
		statusBatch(2),
		{Message: &Envelope_StatusBatch{StatusBatch: &StatusBatch{Statuses: []*Status{{
			StageId: 7, TaskIndex: 1, State: Status_FAILED, ExitCode: 137, Reason: "killed by signal 9",
		}}}}},
		{Message: &Envelope_Heartbeat{Heartbeat: &Heartbeat{UnixNanos: 1_700_000_000_123_456_789,
			Gpus: []*GPUUse{{Index: 1, Uuid: "GPU-8f2e", UtilizationPct: ptr[uint32](37), MemoryTotalMib: ptr[uint64](81559)}}}}},
		{Message: &Envelope_Shutdown{Shutdown: &Shutdown{Reason: "job finished"}}},
		// A session and its clients.
		{Message: &Envelope_SubmitJob{SubmitJob: &SubmitJob{Spec: []byte("name: j\nstages: [{name: s, tasks: 2, command: \"true\"}]\n"), Source: "job.yaml",
			TaskCpus: 2, TaskGpus: 0.5, MaxAttempts: 3, Name: "j2", Pool: "prod", DefaultPool: "default", Follow: true}}},
		{Message: &Envelope_JobAccepted{JobAccepted: &JobAccepted{JobId: 7, Notices: []string{`pool "prod": created with Spark's defaults`}}}},
		{Message: &Envelope_JobUpdate{JobUpdate: &JobUpdate{Job: jobInfo(7), Executors: 3, Ended: true, Attempts: 3, Retries: 1,
			OutputCut: []string{"exec-1/job0-stage0-task0-attempt0.stdout"}}}},
		{Message: &Envelope_ListJobs{ListJobs: &ListJobs{}}},
		{Message: &Envelope_JobList{JobList: &JobList{Jobs: []*JobInfo{jobInfo(7), jobInfo(8)}}}},
		{Message: &Envelope_CancelJob{CancelJob: &CancelJob{JobId: 8, Reason: "by spindle cancel"}}},
		{Message: &Envelope_FollowJob{FollowJob: &FollowJob{JobId: 8}}},
		{Message: &Envelope_StopSession{StopSession: &StopSession{Reason: "spindle session stop"}}},
		{Message: &Envelope_StatsRequest{StatsRequest: &StatsRequest{}}},
		{Message: &Envelope_Stats{Stats: &Stats{ExecutorSeconds: 1168.5, IdleExecutorSeconds: 677.25, PeakExecutors: 8, ContainerRequests: 23,
			JobsSucceeded: 11, JobsFailed: 1, JobsCancelled: 2}}},
		{Message: &Envelope_Credentials{Credentials: &Credentials{File: []byte("HDTS\x00\x01...")}}},
		{Message: &Envelope_ListJobs{ListJobs: &ListJobs{}}, ClientToken: &ClientToken{Identifier: []byte("id"), Password: []byte("pw")}},
		{Message: &Envelope_JobsEnded{JobsEnded: &JobsEnded{JobIds: []int64{12, 13}}}},
		{Message: &Envelope_Drain{Drain: &Drain{Reason: "preempted by YARN", GraceMs: 10_000}}},
		{Message: &Envelope_PickPort{PickPort: &PickPort{Gang: 3}}},
		{Message: &Envelope_PortPicked{PortPicked: &PortPicked{Gang: 3, Port: 29500}}},
		{Message: &Envelope_PortPicked{PortPicked: &PortPicked{Gang: 4, Error: "listen tcp :0: too many open files"}}},
	}
}

// jobInfo is a job as a session lists it.
func jobInfo(id int64) *JobInfo {
	return &JobInfo{Id: id, Name: "j", Pool: "prod", State: "RUNNING", Tasks: 10, Succeeded: 4, Running: 2, FailedAttempts: 1,
		SubmittedUnixMs: 1_795_459_840_000, DurationMs: 12_345, Reason: ""}
}
