package scheduler

import (
	"fmt"
	"testing"
	"time"
)

// The placement benchmark of the issue: 1,000 executors of 32 cores and 8
// GPUs, 10 FAIR pools, 100,000 pending tasks of 1 cpu and 0.25 GPU (32
// slots per executor, so 32,000 run at once).
const (
	benchExecutors = 1000
	benchPools     = 10
	benchTasks     = 100_000
)

func benchScheduler(tb testing.TB) *Scheduler { return benchSchedulerOf(tb, FairTasks) }

// benchSchedulerOf is benchScheduler's cluster and backlog, its pools
// sharing by f, each stage's spec changed by each of edits.
func benchSchedulerOf(tb testing.TB, f Fairness, edits ...func(*StageSpec)) *Scheduler {
	var pools []PoolConfig
	for i := 0; i < benchPools; i++ {
		pools = append(pools, PoolConfig{Name: fmt.Sprintf("pool%02d", i), Mode: FIFO, Weight: 1 + i%3, MinShare: i % 2})
	}
	s, err := New(Config{Mode: FAIR, Fairness: f, Pools: pools, LocalityWait: 3 * time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.AddProfile(Profile{ID: 0, Cores: 32, MemoryMB: 256 << 10, GPUs: 8}); err != nil {
		tb.Fatal(err)
	}
	gpus := []string{"0", "1", "2", "3", "4", "5", "6", "7"}
	for i := 0; i < benchExecutors; i++ {
		if err := s.AddExecutor(t0, ExecutorSpec{ID: ExecutorID(fmt.Sprintf("exec-%04d", i)), Host: fmt.Sprintf("node%03d", i/8), Rack: fmt.Sprintf("rack%d", i/8/16), Cores: 32, GPUs: gpus}); err != nil {
			tb.Fatal(err)
		}
	}
	quarter, _ := ParseGPURequest("gpus", 0.25)
	for p := 0; p < benchPools; p++ {
		ss := StageSpec{Name: "infer", Tasks: benchTasks / benchPools, Request: TaskRequest{CPUs: 1, GPU: quarter}}
		for _, edit := range edits {
			edit(&ss)
		}
		_, err := s.SubmitJob(t0, JobSpec{Name: fmt.Sprintf("job%d", p), Pool: pools[p].Name, Stages: []StageSpec{ss}})
		if err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

// BenchmarkPlacementFill places tasks on an empty cluster until it is full:
// 32,000 placements per op, reported per placed task.
func BenchmarkPlacementFill(b *testing.B) {
	placed := 0
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		s := benchScheduler(b)
		b.StartTimer()
		rd := s.Ready(t0)
		placed += len(rd.Launches)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(placed), "ns/task")
	b.ReportMetric(float64(placed)/float64(b.N), "tasks/op")
}

// BenchmarkPlacementSteadyState is the cluster full with 68,000 tasks
// pending: each op, one task ends and one is placed in its stead (the
// ended one goes back in line, so the backlog never drains). One op is one
// placement.
func BenchmarkPlacementSteadyState(b *testing.B) {
	benchSteadyState(b, benchScheduler(b), func(AttemptID) TaskResult { return TaskResult{Outcome: Failed, Blameless: true} })
}

// BenchmarkPlacementSteadyStateDRF is BenchmarkPlacementSteadyState with
// pools ordered by dominant resource share (drf.go).
func BenchmarkPlacementSteadyStateDRF(b *testing.B) {
	benchSteadyState(b, benchSchedulerOf(b, FairDRF), func(AttemptID) TaskResult { return TaskResult{Outcome: Failed, Blameless: true} })
}

// benchSteadyState fills s's cluster, then each op ends one running task
// with how(its attempt) and places one in its stead.
func benchSteadyState(b *testing.B, s *Scheduler, how func(AttemptID) TaskResult) {
	rd := s.Ready(t0)
	running := make([]AttemptID, 0, len(rd.Launches))
	on := make([]ExecutorID, 0, len(rd.Launches))
	for _, l := range rd.Launches {
		running, on = append(running, l.Attempt), append(on, l.Executor)
	}
	next := 0
	now := t0
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(time.Millisecond)
		if err := s.TaskFinished(now, on[next], running[next], how(running[next])); err != nil {
			b.Fatal(err)
		}
		rd := s.Ready(now)
		if len(rd.Launches) != 1 {
			b.Fatalf("%d launches after one task ended, want 1", len(rd.Launches))
		}
		running[next], on[next] = rd.Launches[0].Attempt, rd.Launches[0].Executor
		next = (next + 1) % len(running)
	}
}

// BenchmarkPlacementSteadyStateLocality is BenchmarkPlacementSteadyState
// with every task preferring 3 of the 125 hosts (and their racks of 16),
// placed by delay scheduling (locality.go) with a 3s wait.
func BenchmarkPlacementSteadyStateLocality(b *testing.B) {
	s := benchSchedulerOf(b, FairTasks, benchLocality)
	benchSteadyState(b, s, func(AttemptID) TaskResult { return TaskResult{Outcome: Failed, Blameless: true} })
}

// benchLocality gives task i of a stage the hosts of three executors
// apart, as an HDFS block's three replicas.
func benchLocality(ss *StageSpec) {
	ss.TaskLocality = make([]TaskLocality, ss.Tasks)
	for i := range ss.TaskLocality {
		l := &ss.TaskLocality[i]
		for r := range 3 {
			h := (i*7 + r*41) % (benchExecutors / 8)
			l.Hosts = append(l.Hosts, fmt.Sprintf("node%03d", h))
			l.Racks = append(l.Racks, fmt.Sprintf("rack%d", h/16))
		}
	}
}
