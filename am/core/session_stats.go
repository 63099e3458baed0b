package core

import "time"

// SessionStats is what the application's executors cost since the core
// started, in the terms `spindle sim` reports a simulated run in, so that
// a trace replayed against a real session compares with its simulation.
//
// The simulator counts a container from its grant to its release; the
// core only knows an executor from its registration to its removal (the
// scheduler's AddExecutor to RemoveExecutor), so ExecutorSeconds leaves
// out each container's start-up (the simulator's StartupDelay) and any
// container released before an executor registered in it. Idle seconds
// are the same in both: an executor's registered time with no task
// running, a task running from its launch to the scheduler hearing how it
// ended. PeakExecutors counts registered executors, where the simulator
// counts containers held.
type SessionStats struct {
	ExecutorSeconds     float64
	IdleExecutorSeconds float64
	PeakExecutors       int
	// ContainerRequests counts the containers asked of the RM (asks.go);
	// 0 in local mode, which asks for none.
	ContainerRequests int
	// The jobs that ended, by how.
	JobsSucceeded, JobsFailed, JobsCancelled int
}

// usage accounts executor time exactly, at each moment that changes it:
// an executor registered or removed, a task launched on one or ended
// there. Between two such moments the counts are constant, so the time
// is their product with the interval.
type usage struct {
	at         time.Time // the last change accounted for
	live, busy int       // executors registered, and those running a task
	// exec and idle are executor seconds up to at. Seconds as a float:
	// a Duration would overflow within days of a large session.
	exec, idle float64
	peak       int
	jobs       map[JobState]int
}

// advance accounts the time from the last change to now. A now before
// it (a caller's clock stepping back) counts nothing.
func (u *usage) advance(now time.Time) {
	if !now.After(u.at) {
		return
	}
	d := now.Sub(u.at).Seconds()
	u.exec += d * float64(u.live)
	u.idle += d * float64(u.live-u.busy)
	u.at = now
}

func (u *usage) registered(now time.Time) {
	u.advance(now)
	u.live++
	u.peak = max(u.peak, u.live)
}

// removed accounts an executor's end; the scheduler ends whatever still
// ran on it.
func (u *usage) removed(now time.Time, x *executor) {
	u.advance(now)
	u.live--
	if x.running > 0 {
		u.busy--
	}
	x.running = 0
}

// taskStarted accounts an attempt the scheduler placed on x.
func (u *usage) taskStarted(now time.Time, x *executor) {
	u.advance(now)
	if x.running == 0 {
		u.busy++
	}
	x.running++
}

// taskEnded accounts an attempt on x that the scheduler took as ended.
// The attempt is x's own: the driver takes each executor's reports from
// its own connection.
func (u *usage) taskEnded(now time.Time, x *executor) {
	u.advance(now)
	if x.running--; x.running == 0 {
		u.busy--
	}
}

func (u *usage) jobEnded(state JobState) {
	if u.jobs == nil {
		u.jobs = map[JobState]int{}
	}
	u.jobs[state]++
}

// Stats is the application's executor time since the core started, up to
// now, and its jobs that ended. It changes nothing.
func (c *Core) Stats(now time.Time) SessionStats {
	u := c.usage
	u.advance(now) // a copy: the core's own stays at its last change
	st := SessionStats{ExecutorSeconds: u.exec, IdleExecutorSeconds: u.idle, PeakExecutors: u.peak,
		JobsSucceeded: u.jobs[JobSucceeded], JobsFailed: u.jobs[JobFailed], JobsCancelled: u.jobs[JobCancelled]}
	if c.yarn != nil {
		st.ContainerRequests = c.yarn.asks.requested
	}
	return st
}
