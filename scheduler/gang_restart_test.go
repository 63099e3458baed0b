package scheduler

import (
	"testing"
	"time"
)

// A gang restarting holds its profile from other stages even while
// another gang acquires (on another profile): the slots its ranks free
// as they stop wait for its next run, which goes out once the gang ahead
// of it has launched.
func TestRestartingGangHoldsBehindAnotherGang(t *testing.T) {
	h := newHarness(t, Config{}, Profile{ID: 0, Cores: 2, GPUs: 2}, Profile{ID: 1, Cores: 2})
	h.exec("e1", "h1", 2, "0", "1")
	h.execOf(1, "c1", "h2", 2)
	cpu := TaskRequest{CPUs: 1}
	h.submit(JobSpec{Name: "a", Stages: []StageSpec{
		{Name: "prep", Tasks: 1, Profile: 1, Request: cpu},
		{Name: "a", Tasks: 2, Profile: 1, Request: cpu, Gang: true, After: []string{"prep"}},
	}})
	h.submit(gangJob(t, "b", 2))
	h.submit(oneStage("c", 2, 1, gpu(t, 1)))
	h.submit(JobSpec{Name: "busy", Stages: []StageSpec{{Name: "busy", Tasks: 1, Profile: 1, Request: cpu}}})
	first := h.ready()
	if got := fmtLaunches(first.Launches); got != "s0/0#0@c1[] s2/0#0@e1[0] s2/1#0@e1[1] s4/0#0@c1[]" {
		t.Fatalf("launches %s", got)
	}
	h.succeed(first.Launches[0]) // prep: gang a now acquires, c1 half busy
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("launched %s", fmtLaunches(rd.Launches))
	}
	h.fail(first.Launches[1], "exit status 1")
	rd := h.ready()
	if len(rd.Kills) != 1 || len(rd.Launches) != 0 {
		t.Fatalf("gang b restarts: kills %+v, launches %s", rd.Kills, fmtLaunches(rd.Launches))
	}
	h.finish(rd.Kills[0].Attempt, TaskResult{Outcome: Killed, Reason: "stopped"})
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("the slots gang b's ranks freed went to %s", fmtLaunches(rd.Launches))
	}
	if msg := checkInternal(h.s); msg != "" {
		t.Fatal(msg)
	}
	h.succeed(first.Launches[3]) // busy: gang a launches, then b, then c waits
	if got := fmtLaunches(h.ready().Launches); got != "s1/0#0@c1[] s1/1#0@c1[] s2/0#1@e1[0] s2/1#1@e1[1]" {
		t.Fatalf("launches %s", got)
	}
}

// A soft gang that times out while ranks of its restart still stop runs
// as an ordinary stage from then on; a stopped rank reporting after that
// is still not blamed: it runs again at once, and only the failure that
// restarted the gang counts.
func TestSoftGangTimesOutWhileRanksStop(t *testing.T) {
	h := newHarness(t, Config{Gang: GangConfig{Timeout: 5 * time.Second, Soft: true}, RetryBackoff: time.Minute})
	twoGPUExecs(h, 1)
	h.submit(gangJob(t, "g", 2))
	first := h.ready()
	h.fail(first.Launches[0], "exit status 1")
	stop := h.ready()
	if len(stop.Kills) != 1 {
		t.Fatalf("kills %+v", stop.Kills)
	}
	h.advance(5 * time.Second)
	rd := h.ready()
	if len(rd.GangTimeouts) != 1 || !rd.GangTimeouts[0].Soft || fmtLaunches(rd.Launches) != "s0/0#1@e1[0]" {
		t.Fatalf("timeouts %+v, launches %s: want rank 0 run as an ordinary task", rd.GangTimeouts, fmtLaunches(rd.Launches))
	}
	h.finish(stop.Kills[0].Attempt, TaskResult{Outcome: Killed, Reason: "stopped"})
	if got := fmtLaunches(h.ready().Launches); got != "s0/1#1@e1[1]" {
		t.Fatalf("stopped rank: launches %s, want it again at once", got)
	}
	if p, _ := h.s.JobProgress(0); p.FailedAttempts != 1 {
		t.Fatalf("progress %+v: the stopped rank was blamed", p)
	}
	if msg := checkInternal(h.s); msg != "" {
		t.Fatal(msg)
	}
}
