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
		{Message: &Envelope_Registered{Registered: &Registered{}}},
		{Message: &Envelope_Rejected{Rejected: &Rejected{Reason: "unknown executor id"}}},
		launchBatch(3),
		{Message: &Envelope_LaunchBatch{LaunchBatch: &LaunchBatch{Launches: []*Launch{{StageId: 1, Builtin: "noop", TaskCount: 1}}}}},
		{Message: &Envelope_Kill{Kill: &Kill{StageId: 7, TaskIndex: 2, Attempt: 1, Reason: "speculative copy won"}}},
		statusBatch(2),
		{Message: &Envelope_StatusBatch{StatusBatch: &StatusBatch{Statuses: []*Status{{
			StageId: 7, TaskIndex: 1, State: Status_FAILED, ExitCode: 137, Reason: "killed by signal 9",
		}}}}},
		{Message: &Envelope_Heartbeat{Heartbeat: &Heartbeat{UnixNanos: 1_700_000_000_123_456_789}}},
		{Message: &Envelope_Shutdown{Shutdown: &Shutdown{Reason: "job finished"}}},
	}
}
