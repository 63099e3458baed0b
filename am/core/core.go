package core

import (
	"fmt"
	"sort"
	"time"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

// Core is the ApplicationMaster's state and rules. It is not safe for
// concurrent use: one goroutine owns it (doc.go).
type Core struct {
	cfg   Config
	sched *scheduler.Scheduler
	alloc *dynalloc.Manager
	// nextTick is when dynamic allocation next runs.
	nextTick time.Time

	execs map[scheduler.ExecutorID]*executor
	// departing are executors whose connection ended, awaiting how.
	departing map[scheduler.ExecutorID]*executor
	// cut are executors written off with their tasks held until they
	// are known gone (cut.go).
	cut        map[scheduler.ExecutorID]*executor
	every      []*ExecutorSummary // every executor that registered, lost ones too (not in a session)
	registered []time.Time        // when each registered (not in a session)
	rejected   int
	usage      usage // executor time, for Stats

	jobs   map[scheduler.JobID]*job
	stages map[scheduler.StageID]*stageOf
	// history are the last JobHistory jobs that ended (jobs.go).
	history []JobInfo

	// firstJob, firstStage and firstAttempt start this AM attempt's
	// ranges of ids (ids.go).
	firstJob     scheduler.JobID
	firstStage   scheduler.StageID
	firstAttempt int

	yarn *containers // nil in local mode
	// gangs are the gang launches held for their port (gang.go).
	gangs gangState
	// kept is the takeover of an earlier attempt's containers (kept.go).
	kept takeover
	// handover, when set, is the AM's leaving its own decommissioning
	// node (handover.go).
	handover *handover

	// failing is why the application cannot go on (Fail), while its jobs
	// are cancelled; final is set once it is over; ended once Ready has
	// said so.
	failing string
	// stopping is why a session was stopped (Stop), while its jobs are
	// cancelled.
	stopping string
	final    *Final
	ended    bool
	rd       Ready
}

// job is a submitted job and its running summary.
type job struct {
	id   scheduler.JobID
	spec *jobspec.Job
	// stageProfiles are its stages' executor profiles.
	stageProfiles []scheduler.ProfileID
	sum           Summary
	cancelled     bool
	succeeded     int // tasks
	// ranOn are the executors its tasks were launched on, in a session,
	// in the order of their first: they have its task files (JobsEnded).
	ranOn []scheduler.ExecutorID
}

// stageOf finds a stage's job and spec.
type stageOf struct {
	job     *job
	spec    *jobspec.Stage
	index   int       // its place among the job's stages
	started time.Time // its first launch; zero before
}

// New returns a core with no executors and no jobs.
func New(cfg Config) (*Core, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	sched, err := scheduler.New(cfg.Scheduler)
	if err != nil {
		return nil, err
	}
	firstJob, firstStage, firstAttempt, err := idRanges(cfg.AMAttempt)
	if err != nil {
		return nil, err
	}
	if err := sched.NumberAttemptsFrom(firstAttempt); err != nil {
		return nil, err
	}
	for _, p := range cfg.Profiles {
		if err := sched.AddProfile(p); err != nil {
			return nil, err
		}
	}
	c := &Core{cfg: cfg, sched: sched, execs: map[scheduler.ExecutorID]*executor{}, departing: map[scheduler.ExecutorID]*executor{}, cut: map[scheduler.ExecutorID]*executor{},
		jobs: map[scheduler.JobID]*job{}, stages: map[scheduler.StageID]*stageOf{}, firstJob: firstJob, firstStage: firstStage, firstAttempt: firstAttempt}
	if cfg.Allocation != nil {
		if c.alloc, err = dynalloc.New(*cfg.Allocation); err != nil {
			return nil, err
		}
	}
	if cfg.Containers != nil {
		c.yarn = newContainers(cfg.Containers, cfg.Profiles, c.alloc)
	}
	return c, nil
}

// Submit adds a job. stageProfiles gives each of its stages, in order, the
// profile of the executors its tasks run on; nil gives each stage the
// first profile whose executors can hold one of its tasks, and refuses a
// job with a stage that none can, naming the stage and the profiles. It
// takes the next id of this AM attempt's range (ids.go).
func (c *Core) Submit(now time.Time, spec *jobspec.Job, stageProfiles []scheduler.ProfileID) (scheduler.JobID, error) {
	c.numberNewJobs()
	return c.submit(now, spec, stageProfiles)
}

// submit adds a job under the next id the scheduler gives.
func (c *Core) submit(now time.Time, spec *jobspec.Job, stageProfiles []scheduler.ProfileID) (scheduler.JobID, error) {
	switch {
	case c.final != nil:
		return 0, fmt.Errorf("the application has ended: %s", c.final.Diagnostics)
	case c.stopping != "":
		return 0, fmt.Errorf("the session is stopping: %s", c.stopping)
	case c.failing != "":
		return 0, fmt.Errorf("the application is failing: %s", c.failing)
	}
	ss, err := spec.SchedulerSpec(c.cfg.Profiles[0].ID)
	if err != nil {
		return 0, err
	}
	if err := c.admit(spec); err != nil {
		return 0, err
	}
	if stageProfiles == nil {
		if stageProfiles, err = c.fitProfiles(spec); err != nil {
			return 0, err
		}
	}
	if len(stageProfiles) != len(ss.Stages) {
		return 0, fmt.Errorf("%d stage profiles for %d stages", len(stageProfiles), len(ss.Stages))
	}
	for i, p := range stageProfiles {
		ss.Stages[i].Profile = p
		if ss.Stages[i].Request.Accels, err = spec.Stages[i].TaskAccels(c.cfg.TaskAccels); err != nil {
			return 0, fmt.Errorf("stage %q: %w", spec.Stages[i].Name, err)
		}
	}
	if err := c.gangsFit(spec.Name, ss); err != nil {
		return 0, err
	}
	id, err := c.sched.SubmitJob(now, ss)
	if err != nil {
		return 0, err
	}
	j := &job{id: id, spec: spec, stageProfiles: stageProfiles, sum: Summary{ID: id, Job: spec.Name, Started: now}}
	for i, sid := range c.sched.JobStages(id) {
		c.stages[sid] = &stageOf{job: j, spec: &spec.Stages[i], index: i}
		j.sum.Tasks += spec.Stages[i].Tasks
	}
	c.jobs[id] = j
	c.notice(Notice{Job: spec.Name, Message: fmt.Sprintf("job submitted: %d stages, %d tasks", len(spec.Stages), j.sum.Tasks)})
	return id, nil
}

// Fail ends the application: every job is cancelled with reason, which
// becomes the application's diagnostics (the RM told the AM to shut down,
// executors fail too often to go on).
func (c *Core) Fail(now time.Time, reason string) {
	c.notice(Notice{Warning: true, Message: "the application cannot go on: " + reason})
	ids := make([]scheduler.JobID, 0, len(c.jobs))
	for id := range c.jobs {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, k int) bool { return ids[i] < ids[k] })
	for _, id := range ids {
		c.sched.CancelJob(id, reason)
	}
	if c.failing == "" {
		c.failing = reason
	}
	if len(ids) == 0 && c.final == nil {
		c.final = &Final{Diagnostics: reason}
	}
}

// JobStages are a submitted job's stages, in its spec's order.
func (c *Core) JobStages(id scheduler.JobID) []scheduler.StageID { return c.sched.JobStages(id) }

// Ready carries out what is due at now (lost heartbeats, unexplained
// departures, dynamic allocation), runs a round of placement, and
// returns the batch of actions for the caller. Once it has returned
// Unregister it returns nothing more, nor anything but HandedOver once
// it has said that.
func (c *Core) Ready(now time.Time) Ready {
	if c.ended || c.handedOver() {
		return c.take()
	}
	c.checkExecutors(now)
	c.checkDrains(now)
	c.checkHandover(now)
	if c.alloc != nil && !now.Before(c.nextTick) {
		c.allocate(now)
		c.nextTick = now.Add(c.cfg.AllocationTick)
	}
	c.place(now, !c.holding(now))
	if c.final != nil {
		c.end()
		return c.take()
	}
	if c.yarn != nil {
		if c.yarn.inflight == nil && (!now.Before(c.yarn.nextAt) || c.yarn.releaseNow) {
			c.limitToTasks(now)
			c.raiseForGang()
			c.shapeTargets(now) // after the gang's floor, which its executors serve too
			c.rd.Allocate = c.yarn.request(now, c.progress())
		}
		c.rd.StartContainers = append(c.rd.StartContainers, c.yarn.starts...)
		c.yarn.starts = nil
	}
	c.rd.Next = c.next(now)
	return c.take()
}

// take hands out the batch, with what inputs added since the last one
// (disconnects, notices), and starts the next.
func (c *Core) take() Ready {
	out := c.rd
	c.rd = Ready{}
	return out
}

// end finishes the batch of the application's last Ready: every executor
// is told to stop, and the caller to unregister.
func (c *Core) end() {
	ids := make([]scheduler.ExecutorID, 0, len(c.execs))
	for id := range c.execs {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, k int) bool { return ids[i] < ids[k] })
	for _, id := range ids {
		c.rd.Disconnects = append(c.rd.Disconnects, Disconnect{Executor: id, Reason: "application ended"})
	}
	if c.yarn != nil {
		c.rd.StartContainers = c.rd.StartContainers[:0]
	}
	c.rd.Unregister = c.final
	c.ended = true
}

// next is the earliest time something falls due with no input.
func (c *Core) next(now time.Time) time.Time {
	var at time.Time
	earliest := func(t time.Time) {
		if !t.IsZero() && (at.IsZero() || t.Before(at)) {
			at = t
		}
	}
	if t, ok := c.sched.Wakeup(now); ok {
		earliest(t)
	}
	if c.cfg.HeartbeatTimeout > 0 {
		for _, x := range c.execs {
			earliest(x.lastSeen.Add(c.cfg.HeartbeatTimeout).Add(time.Nanosecond))
		}
	}
	for _, x := range c.departing {
		earliest(x.departed.Add(c.cfg.LossReasonWait))
	}
	for _, x := range c.cut {
		earliest(x.goneBy)
	}
	if c.alloc != nil {
		earliest(c.nextTick)
	}
	if len(c.kept.awaiting) > 0 {
		earliest(c.kept.awaitUntil)
	}
	if len(c.kept.released) > 0 {
		earliest(c.kept.goneBy)
	}
	if c.yarn != nil && c.yarn.inflight == nil {
		earliest(c.yarn.nextAt)
		if c.yarn.releaseNow {
			earliest(now)
		}
	}
	if c.yarn != nil {
		for _, t := range c.drainTimes() {
			earliest(t)
		}
		earliest(c.handoverTime())
	}
	if !at.IsZero() && at.Before(now) {
		at = now
	}
	return at
}

func (c *Core) notice(n Notice) { c.rd.Notices = append(c.rd.Notices, n) }

// progress is the fraction of the application's tasks done, for the RM.
func (c *Core) progress() float32 {
	tasks, done := 0, 0
	for id := range c.jobs {
		if p, ok := c.sched.JobProgress(id); ok {
			tasks += p.Tasks
			done += p.Succeeded
		}
	}
	if tasks == 0 {
		return 0
	}
	return float32(done) / float32(tasks)
}
