package scheduler

import (
	"fmt"
	"slices"
	"time"
)

// A gang stage (StageSpec.Gang) launches all its waiting tasks in one
// round or none of them: distributed training's workers must all be up
// to rendezvous, and half a gang holding GPUs is waste. So that two gangs
// never each hold half of what both need, one gang acquires at a time
// (the first waiting, in submission order: the head); while it waits, its
// profile's executors take no other stage's new task, so what ends there
// is kept for it. A gang whose run failed restarts as one: from the
// failure on it holds its profile the same way (whichever gang acquires),
// so what its ranks free as they stop is kept for its next run. It waits
// at most Config.Gang.Timeout per try; then, hard, it tries again (the
// caller lets go of the executors left idle for it, GangTimeout) up to
// Gang.MaxRetries times, and fails its job; soft, it runs as an
// ordinary stage from then on.

// GangConfig is how gangs wait (spindle.gang.*).
type GangConfig struct {
	// Timeout bounds one try at acquiring a gang's slots (default 60s).
	Timeout time.Duration
	// MaxRetries is how many tries follow the first before the job fails.
	MaxRetries int
	// Soft runs a gang that timed out as an ordinary stage instead.
	Soft bool
}

// GangTimeout tells the caller that the waiting gang of Stage timed out:
// it lets go of the idle executors of Profile it held for it (a new try
// asks again), or, when Soft, the stage runs as an ordinary one now.
type GangTimeout struct {
	Stage   StageID
	Job     JobID
	Profile ProfileID
	Try     int // the try that timed out, from 1
	Soft    bool
	Message string
}

// isGang says whether st launches all or nothing: a gang stage not
// demoted by a soft timeout.
func (st *stage) isGang() bool { return st.spec.Gang && !st.gangDemoted }

// LaunchesAsGang says whether stage id's launches are a gang's, all in
// one batch: a gang stage not run as an ordinary one after a soft
// timeout.
func (s *Scheduler) LaunchesAsGang(id StageID) bool {
	st := s.stages[id]
	return st != nil && st.isGang()
}

// gangWaiting says whether gang st waits to launch: tasks queued and none
// of its attempts running, or a restart under way, its other ranks
// still stopping. A restarting gang acquires from its failure on, so
// that what its ranks free as they stop is kept for its next run (it
// launches only once all have stopped: placeGang).
func (st *stage) gangWaiting() bool {
	return st.isGang() && st.queued() > 0 && (st.running == 0 && st.backingOff == 0 || st.gangRestarting)
}

// gangRun counts the tasks gang st's next run launches: those queued and
// those still stopping for its restart.
func (st *stage) gangRun() int {
	return st.pending() + st.running
}

// restarting marks gang st as restarting (on) or not: from a failure of
// one of its ranks until it runs again, times out, or its job ends. While
// it restarts, its profile's executors take no other stage's new task,
// whichever gang acquires (heldFrom).
func (s *Scheduler) restarting(st *stage, on bool) {
	if st.gangRestarting == on {
		return
	}
	st.gangRestarting = on
	if on {
		if s.restartingOn == nil {
			s.restartingOn = map[*profileState]int{}
		}
		s.restartingOn[st.profile]++
		return
	}
	if s.restartingOn[st.profile]--; s.restartingOn[st.profile] == 0 {
		delete(s.restartingOn, st.profile)
	}
}

// headGang is the gang acquiring now: the first waiting, by (job, stage);
// nil when none waits.
func (s *Scheduler) headGang() *stage {
	for _, st := range s.gangs {
		if st.gangWaiting() {
			return st
		}
	}
	return nil
}

// startAcquiring starts the head gang's clock the first time it is seen
// waiting: its try's timeout counts from then.
func (s *Scheduler) startAcquiring(now time.Time) {
	s.head = s.headGang()
	if s.head != nil && s.head.gangSince.IsZero() {
		s.head.gangSince = now
	}
}

// heldFrom says whether st, not a gang, may not take an executor now: a
// gang waits on st's profile, the one acquiring or one restarting.
func (s *Scheduler) heldFrom(st *stage) bool {
	return s.head != nil && s.head != st && s.head.profile == st.profile || len(s.restartingOn) > 0 && s.restartingOn[st.profile] > 0
}

// gangSlot is where one task of a gang would run.
type gangSlot struct {
	ex     *executor
	addrs  []string
	accels []Assigned
}

// fitGang finds a slot for each task of st's next run on free executors
// of its profile, in executor order, holding their addresses; fewer than
// wanted when they do not all fit (then the caller gives them back).
func (s *Scheduler) fitGang(now time.Time, st *stage) []gangSlot {
	want := st.gangRun()
	req := st.spec.Request
	var slots []gangSlot
	for _, ex := range st.profile.executors {
		if ex.disabled || ex.host.excluded(now) {
			continue
		}
		for cores := ex.freeCores; cores >= req.CPUs && len(slots) < want; cores -= req.CPUs {
			addrs, ok := ex.gpus.acquire(req.GPU)
			if !ok {
				break
			}
			accels, ok := ex.accels.acquire(req.Accels)
			if !ok {
				_ = ex.gpus.release(addrs, req.GPU) // acquired just now: always held
				break
			}
			slots = append(slots, gangSlot{ex, addrs, accels})
		}
	}
	return slots
}

// unfit gives back the addresses fitGang held.
func (s *Scheduler) unfit(st *stage, slots []gangSlot) {
	for _, sl := range slots {
		_ = sl.ex.gpus.release(sl.addrs, st.spec.Request.GPU) // acquired just now: always held
		_ = sl.ex.accels.release(sl.accels, st.spec.Request.Accels)
	}
}

// placeGang launches every queued task of the head gang st, or none;
// none while ranks of its last run still stop.
func (s *Scheduler) placeGang(now time.Time, st *stage) bool {
	if st != s.head || st.running > 0 || st.backingOff > 0 {
		return false // one gang acquires at a time, whole
	}
	want := st.queued()
	slots := s.fitGang(now, st)
	if len(slots) < want {
		s.unfit(st, slots)
		return false
	}
	for _, sl := range slots {
		s.launch(now, st, sl.ex, st.popPending(), sl.addrs, sl.accels)
	}
	st.gangSince, st.gangTries = time.Time{}, 0
	s.restarting(st, false)
	s.startAcquiring(now)
	return true
}

// gangFree counts the slots gang st would find now.
func (s *Scheduler) gangFree(now time.Time, st *stage) int {
	slots := s.fitGang(now, st)
	s.unfit(st, slots)
	return len(slots)
}

// gangTimeouts times the head gang out once its try has lasted
// Gang.Timeout: at the deadline exactly, not a tick before.
func (s *Scheduler) gangTimeouts(now time.Time) {
	st := s.headGang()
	if st == nil || st.gangSince.IsZero() || now.Before(st.gangSince.Add(s.cfg.Gang.Timeout)) {
		return
	}
	st.gangTries++
	s.restarting(st, false) // its hold is bounded by the try's timeout too
	j := st.job
	msg := fmt.Sprintf("gang stage %q of job %q: %d of %d tasks (%s each) placeable within %v, %s",
		st.spec.Name, j.name, s.gangFree(now, st), st.gangRun(), st.spec.Request.describe(), s.cfg.Gang.Timeout, plural(st.gangTries, "try", "tries"))
	to := GangTimeout{Stage: st.id, Job: j.id, Profile: st.spec.Profile, Try: st.gangTries, Soft: s.cfg.Gang.Soft, Message: msg}
	switch {
	case s.cfg.Gang.Soft:
		// Its class was its own (fitKey.gang): it joins the ordinary one.
		s.leaveClass(st)
		st.gangDemoted = true
		s.joinClass(st)
		to.Message = msg + ": runs as an ordinary stage (spindle.gang.style=soft)"
	case st.gangTries > s.cfg.Gang.MaxRetries:
		s.endJob(j, msg)
	default:
		st.gangSince = now
	}
	s.out.GangTimeouts = append(s.out.GangTimeouts, to)
}

// gangTaskSucceeded holds gang st's task t, which succeeded, as done only
// provisionally: a gang's run succeeds or fails as a unit, since a rank
// that exited 0 must still be there when a failed sibling's restart
// rendezvouses again (WORLD_SIZE ranks, or torch.distributed waits
// forever). With the last of the gang's tasks, all succeed at once, and
// Ready lists them (GangTasksDone). A gang holds no more tasks than run
// at once, so keeping their records until then costs little.
func (s *Scheduler) gangTaskSucceeded(now time.Time, st *stage, t *task) {
	t.state = taskProvisional
	if st.provisional++; st.succeeded+st.provisional < st.spec.Tasks {
		return
	}
	st.provisional = 0
	for c := range st.chunks {
		tasks := st.chunks[c].tasks // kept here: succeed may drop the chunk
		for i := range tasks {
			if tasks[i].state == taskProvisional {
				s.out.GangTasksDone = append(s.out.GangTasksDone, TaskID{st.id, c*chunkTasks + i})
				s.succeed(now, st, &tasks[i], c*chunkTasks+i)
			}
		}
	}
}

// restartGang stops every other running attempt of gang st, one of whose
// tasks ended without success, and queues again those that succeeded
// provisionally: the gang runs again whole, every rank of it, and the
// tasks stopped for it are not blamed (stopped attempts requeue as they
// report: attemptEnded). It acquires at once: the slots its ranks free
// as they stop are kept for it.
func (s *Scheduler) restartGang(st *stage, failed int, reason string) {
	why := fmt.Sprintf("gang stage %q restarts: task %d ended: %s", st.spec.Name, failed, reason)
	for c := range st.chunks {
		tasks := st.chunks[c].tasks
		for i := range tasks {
			t := &tasks[i]
			if t.state == taskProvisional {
				s.requeue(st, t, c*chunkTasks+i)
				continue
			}
			if t.state != taskRunning {
				continue
			}
			t.state = taskStopping
			if t.exec.removed {
				continue // RemoveExecutor ends it next
			}
			s.out.Kills = append(s.out.Kills, Kill{Attempt: AttemptID{TaskID{st.id, c*chunkTasks + i}, int(t.attempts) - 1}, Executor: t.exec.spec.ID, Reason: why})
		}
	}
	st.gangSince, st.gangTries, st.provisional = time.Time{}, 0, 0
	s.restarting(st, true)
}

// gangEnded moves gang st's task idx on from an attempt that did not
// succeed, and was not stopped for a restart: it stops the others and
// counts one failed attempt of the gang (blameless ones count nothing);
// false when the job failed.
func (s *Scheduler) gangEnded(st *stage, t *task, idx int, r TaskResult) bool {
	if !r.Blameless {
		st.gangFailures++
		st.job.failedAttempts++
		s.out.Failures = append(s.out.Failures, TaskID{st.id, idx})
		if r.Permanent || st.gangFailures >= st.maxFailures {
			t.state = taskAbandoned
			s.endJob(st.job, fmt.Sprintf("gang stage %q failed %s; last failure: task %d: %s", st.spec.Name, times(st.gangFailures), idx, r.Reason))
			return false
		}
	}
	s.requeue(st, t, idx)
	s.restartGang(st, idx, r.Reason)
	return true
}

// addGang and dropGang keep s.gangs, the runnable gang stages, in
// (job, stage) order.
func (s *Scheduler) addGang(st *stage) {
	if !st.spec.Gang {
		return
	}
	i, _ := slices.BinarySearchFunc(s.gangs, st, stageOrder)
	s.gangs = slices.Insert(s.gangs, i, st)
}

func (s *Scheduler) dropGang(st *stage) {
	if i, ok := slices.BinarySearchFunc(s.gangs, st, stageOrder); ok && st.spec.Gang {
		s.gangs = slices.Delete(s.gangs, i, i+1)
	}
	if s.head == st {
		s.head = nil
	}
	s.restarting(st, false)
}

// gangReason says why gang st waits: "gang of 4 × 1 cpu, 1 GPU: 2 of 4
// slots free, times out in 12s"; restarting, also how many of its ranks
// still stop ("2 of 4 slots free, 2 ranks stopping, ...").
func (s *Scheduler) gangReason(now time.Time, st *stage) string {
	what := fmt.Sprintf("gang of %d × %s", st.gangRun(), st.spec.Request.describe())
	head := s.headGang()
	switch {
	case head == nil:
		return what
	case head != st:
		return fmt.Sprintf("%s: gang stage %q of job %q acquires first", what, head.spec.Name, head.job.name)
	}
	msg := fmt.Sprintf("%s: %d of %d slots free", what, s.gangFree(now, st), st.gangRun())
	if st.running > 0 {
		msg += ", " + plural(st.running, "rank", "ranks") + " stopping"
	}
	if !st.gangSince.IsZero() {
		msg += fmt.Sprintf(", times out in %v", st.gangSince.Add(s.cfg.Gang.Timeout).Sub(now).Round(time.Millisecond))
	}
	return msg
}

// gangWakeup is when the head gang's try times out.
func (s *Scheduler) gangWakeup() (time.Time, bool) {
	if st := s.headGang(); st != nil && !st.gangSince.IsZero() {
		return st.gangSince.Add(s.cfg.Gang.Timeout), true
	}
	return time.Time{}, false
}

// plural says "1 try", "3 tries".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// describe says what one task asks: "1 cpu, 4 GPUs".
func (r TaskRequest) describe() string {
	out := plural(r.CPUs, "cpu", "cpus")
	switch {
	case r.GPU.IsZero():
	case r.GPU.Whole() == 1:
		out += ", 1 GPU"
	default:
		out += ", " + r.GPU.String() + " GPUs"
	}
	return out
}

// GangWant is what the gang acquiring now waits for: Tasks tasks asking
// Request of executors of Profile, at once.
type GangWant struct {
	Stage   StageID
	Profile ProfileID
	Tasks   int
	Request TaskRequest
	// Executors is how many executors of the profile hold them all.
	Executors int
}

// AcquiringGang is the gang acquiring now, if one waits: the caller
// keeps at least Executors executors of its profile, whatever else
// decides their number (dynamic allocation, spindle.executor.instances).
func (s *Scheduler) AcquiringGang() (GangWant, bool) {
	st := s.headGang()
	if st == nil {
		return GangWant{}, false
	}
	n := st.gangRun()
	per := max(st.profile.TasksPerExecutor(st.spec.Request), 1)
	return GangWant{Stage: st.id, Profile: st.spec.Profile, Tasks: n, Request: st.spec.Request, Executors: (n + per - 1) / per}, true
}
