package scheduler

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// StageDemand is what one stage wants of a profile's executors: dynamic
// allocation sizes the executor count from it.
type StageDemand struct {
	Stage            StageID
	Running, Pending int
	// Speculative counts copies of stragglers waiting for an executor
	// (speculation.go): not in Pending.
	Speculative      int
	TasksPerExecutor int
	// ExcludedOnly: its tasks could run only on excluded hosts, so more
	// executors (elsewhere) would help.
	ExcludedOnly bool
}

// Demand lists the stages with running or pending tasks on profile p, by
// stage id. Stages still waiting for their parents are not demand yet.
func (s *Scheduler) Demand(now time.Time, p ProfileID) []StageDemand {
	prof := s.profiles[p]
	var out []StageDemand
	for _, j := range s.jobsInOrder() {
		for _, st := range j.stages {
			if st.profile != prof || j.ended || (st.running == 0 && (!st.runnable || st.pending() == 0)) {
				continue
			}
			out = append(out, StageDemand{
				Stage: st.id, Running: st.running, Pending: st.pending(), Speculative: st.speculative(),
				TasksPerExecutor: prof.TasksPerExecutor(st.spec.Request),
				ExcludedOnly:     st.pending() > 0 && s.onlyExcluded(now, st),
			})
		}
	}
	return out
}

// ExecutorStatus is an executor as the scheduler sees it.
type ExecutorStatus struct {
	ID        ExecutorID
	Host      string
	Profile   ProfileID
	Running   int
	FreeCores int
	// IdleSince is when its last task ended (or it registered); zero while
	// it runs tasks.
	IdleSince time.Time
}

// Executors lists the registered executors by id.
func (s *Scheduler) Executors() []ExecutorStatus {
	out := make([]ExecutorStatus, 0, len(s.executors))
	for _, ex := range s.executors {
		st := ExecutorStatus{ID: ex.spec.ID, Host: ex.spec.Host, Profile: ex.spec.Profile, Running: len(ex.running), FreeCores: ex.freeCores}
		if len(ex.running) == 0 {
			st.IdleSince = ex.idleSince
		}
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b ExecutorStatus) int { return strings.Compare(string(a.ID), string(b.ID)) })
	return out
}

// Progress counts a job's (or a pool's) tasks.
type Progress struct {
	Tasks, Succeeded, Running, Pending int
	FailedAttempts                     int
}

func (p *Progress) add(j *job) {
	for _, st := range j.stages {
		p.Tasks += st.spec.Tasks
		p.Succeeded += st.succeeded
		p.Running += st.running
		if !j.ended {
			// Queued or waiting for parents alike.
			p.Pending += st.spec.Tasks - st.succeeded - st.ownRunning()
		}
	}
	p.FailedAttempts += j.failedAttempts
}

// JobProgress reports an active job's progress.
func (s *Scheduler) JobProgress(id JobID) (Progress, bool) {
	j, ok := s.jobs[id]
	if !ok {
		return Progress{}, false
	}
	var p Progress
	p.add(j)
	return p, true
}

// PoolProgress reports the progress of a pool's active jobs.
func (s *Scheduler) PoolProgress(name string) (Progress, bool) {
	if _, ok := s.pools[name]; !ok {
		return Progress{}, false
	}
	var p Progress
	for _, j := range s.jobs {
		if j.pool.cfg.Name == name {
			p.add(j)
		}
	}
	return p, true
}

// Reason is why a stage's pending tasks are not running.
type Reason int

const (
	ReasonNone                  Reason = iota // nothing pending, or placeable now
	ReasonWaitingForParents                   // earlier stages have not succeeded
	ReasonNoExecutors                         // no executor of its profile is registered
	ReasonInsufficientResources               // executors exist but none has room
	ReasonExcludedHosts                       // only excluded hosts could run it
	ReasonWaitingForLocality                  // waiting for a preferred host or executor
	ReasonRetryBackoff                        // failed tasks waiting out their retry backoff
	ReasonGang                                // a gang waiting for all its slots (gang.go)
)

// PendingReason is why a stage waits, with the message to show the user,
// in the manner of Kubernetes' "0/3 nodes are available: ...".
type PendingReason struct {
	Stage   StageID
	Name    string
	Pending int
	Reason  Reason
	Message string
}

// WhyPending explains, for each stage of job id with tasks not running,
// why they wait. Call it after Ready: what Ready could place has been.
func (s *Scheduler) WhyPending(now time.Time, id JobID) []PendingReason {
	j, ok := s.jobs[id]
	if !ok {
		return nil
	}
	var out []PendingReason
	for _, st := range j.stages {
		waiting := st.spec.Tasks - st.succeeded - st.ownRunning()
		if waiting == 0 || j.ended {
			continue
		}
		r := PendingReason{Stage: st.id, Name: st.spec.Name, Pending: waiting}
		r.Reason, r.Message = s.reason(now, st)
		out = append(out, r)
	}
	return out
}

func (s *Scheduler) reason(now time.Time, st *stage) (Reason, string) {
	if !st.runnable {
		return ReasonWaitingForParents, "waiting for stage " + st.waitingFor()
	}
	if st.isGang() && (st.running == 0 || st.gangRestarting) {
		return ReasonGang, s.gangReason(now, st)
	}
	prof := st.profile
	if len(prof.executors) == 0 {
		return ReasonNoExecutors, fmt.Sprintf("no executor of profile %d (%d cores, %d GPUs) has registered yet", prof.ID, prof.Cores, prof.GPUs)
	}
	req := st.spec.Request
	var excluded, cpu, gpu, accel, elsewhere int
	waiting := st.hasPreference() && now.Before(st.localityWaitEnds())
	for _, ex := range prof.executors {
		switch {
		case ex.host.excluded(now):
			excluded++
		case ex.freeCores < req.CPUs:
			cpu++
		case !ex.gpus.fits(req.GPU):
			gpu++
		case !ex.accels.fits(req.Accels):
			accel++
		case waiting && !st.wants(ex):
			elsewhere++
		}
	}
	n := len(prof.executors)
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{cpu, "insufficient cpu"}, {gpu, "insufficient GPU (" + req.GPU.String() + " per task)"},
		{accel, "insufficient accelerators (" + req.Accels.String() + " per task)"}, {excluded, "on excluded hosts"}, {elsewhere, "not a preferred host or executor"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	free := n - excluded - cpu - gpu - accel - elsewhere
	msg := fmt.Sprintf("%d/%d executors can take a task: %s", free, n, strings.Join(parts, ", "))
	var backoff string
	if st.backingOff > 0 {
		backoff = s.backoffWait(now, st)
	}
	switch {
	case excluded == n:
		return ReasonExcludedHosts, join(msg, backoff)
	case elsewhere > 0 && free == 0:
		return ReasonWaitingForLocality, join(msg, fmt.Sprintf("waiting %s more for locality", st.localityWaitEnds().Sub(now).Round(time.Millisecond)), backoff)
	case free == 0:
		return ReasonInsufficientResources, join(msg, backoff)
	case st.queued() == 0 && backoff != "":
		return ReasonRetryBackoff, backoff // executors could take them now
	}
	return ReasonNone, msg
}

// backoffWait says how many of st's tasks wait out their retry backoff,
// and for how long yet.
func (s *Scheduler) backoffWait(now time.Time, st *stage) string {
	var next time.Time
	for _, w := range s.backoffs {
		if w.st == st && (next.IsZero() || w.at.Before(next)) {
			next = w.at
		}
	}
	in := next.Sub(now).Round(time.Millisecond)
	if st.backingOff == 1 {
		return fmt.Sprintf("a failed task waits out its retry backoff, %s more", in)
	}
	return fmt.Sprintf("%d failed tasks wait out their retry backoff, the first %s more", st.backingOff, in)
}

// waitingFor names st's parents that have not succeeded: "a", "b".
func (st *stage) waitingFor() string {
	var names []string
	for _, p := range st.parents {
		if p.succeeded < p.spec.Tasks {
			names = append(names, quote(p.spec.Name))
		}
	}
	return strings.Join(names, ", ")
}

// join joins the non-empty parts of a message with "; ".
func join(parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), "; ")
}

// Wakeup is when Ready should next be called even if nothing else happens:
// a locality wait, a host exclusion or a task's retry backoff runs out, an
// unschedulable stage reaches its timeout, or a running task may become a
// straggler to speculate on. ok is false when nothing is
// due.
func (s *Scheduler) Wakeup(now time.Time) (t time.Time, ok bool) {
	earliest := func(c time.Time) {
		if c.After(now) && (!ok || c.Before(t)) {
			t, ok = c, true
		}
	}
	if s.excluded > 0 {
		earliest(s.nextExpiry)
	}
	if len(s.backoffs) > 0 {
		earliest(s.backoffs[0].at)
	}
	if at, ok := s.gangWakeup(); ok {
		earliest(at)
	}
	// Only stages with locality preferences have a deadline, and a stage
	// is unschedulable only while some host is excluded: a backlog of
	// plain stages is not looked at after every event.
	for st := range s.localized {
		if st.pending() > 0 {
			earliest(st.localityWaitEnds())
		}
	}
	for _, st := range s.speculating {
		if st.specul.armed {
			earliest(st.specul.due)
		}
	}
	if s.excluded > 0 {
		for _, st := range s.stages {
			if st.runnable && st.pending() > 0 && !st.unschedulable.IsZero() {
				earliest(st.unschedulable.Add(s.cfg.Exclusion.UnschedulableTimeout))
			}
		}
	}
	return t, ok
}
