package scheduler

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// ErrStaleAttempt is returned for a report about an attempt the scheduler
// no longer tracks (its executor was already declared lost, say). Callers
// may ignore it.
var ErrStaleAttempt = errors.New("no such running attempt")

// Scheduler is the task scheduler core. It is not safe for concurrent use:
// one event loop owns it, feeds it events, and carries out what Ready
// returns. See the package documentation for the loop.
type Scheduler struct {
	cfg       Config
	profiles  map[ProfileID]*profileState
	executors map[ExecutorID]*executor
	hosts     map[string]*host
	jobs      map[JobID]*job
	stages    map[StageID]*stage
	pools     map[string]*pool
	poolOrder []*pool // by name
	root      *pool   // FIFO mode: every runnable stage, by (job, stage)
	capacity  usage   // FairDRF: what the registered executors offer

	jobSeq   JobID
	stageSeq StageID
	// firstAttempt numbers a task's first attempt here (job_ids.go).
	firstAttempt int
	round        uint64
	out          Ready
	// spare holds the slices of the Ready last returned: events until the
	// next Ready append to out, so the caller's batch stays intact.
	spare Ready

	excluded   int       // hosts excluded at the last check
	nextExpiry time.Time // when the next exclusion ends

	// Indexes that keep a placement round and Wakeup from looking at every
	// queued stage: fit classes (fit_class.go), the rank of pools under
	// FAIR (rank.go), and the runnable stages with locality preferences.
	classes        map[fitKey]*fitClass
	liveClasses    int // classes with queued tasks
	blockedClasses int // of those, blocked in this round
	fair           rank[*pool]
	setAside       []*pool // pools whose rank of stages has some set aside
	localized      map[*stage]bool

	backoffs retryHeap // failed tasks waiting out their retry backoff

	// gangs are the runnable gang stages, by (job, stage); head is the one
	// acquiring in this round; restartingOn counts the gangs restarting
	// on each profile (gang.go).
	gangs        []*stage
	head         *stage
	restartingOn map[*profileState]int

	// speculating are the runnable stages that speculate, by (job, stage)
	// (speculation.go).
	speculating []*stage

	// The two choices placement makes, behind fields so tests can check the
	// fast ones against deliberately naive ones.
	pickStage    func() *stage
	pickExecutor func(now time.Time, st *stage) *executor
}

// New returns a scheduler with cfg's pools configured.
func New(cfg Config) (*Scheduler, error) {
	s := &Scheduler{
		cfg:       cfg.withDefaults(),
		profiles:  map[ProfileID]*profileState{},
		executors: map[ExecutorID]*executor{},
		hosts:     map[string]*host{},
		jobs:      map[JobID]*job{},
		stages:    map[StageID]*stage{},
		pools:     map[string]*pool{},
		root:      &pool{cfg: DefaultPoolConfig("root")},
		classes:   map[fitKey]*fitClass{},
		localized: map[*stage]bool{},
	}
	s.pickStage, s.pickExecutor = s.nextStage, s.findExecutor
	if cfg.MaxTaskFailures > MaxAttemptsLimit {
		return nil, fmt.Errorf("task max failures %d: more than the %d attempts a task may have", cfg.MaxTaskFailures, MaxAttemptsLimit)
	}
	for _, pc := range cfg.Pools {
		if _, dup := s.pools[pc.Name]; dup {
			return nil, fmt.Errorf("pool %q configured twice", pc.Name)
		}
		if pc.Name == "" || pc.Weight < 1 || pc.MinShare < 0 {
			return nil, fmt.Errorf("pool %q: weight %d, minShare %d: want a name, weight >= 1, minShare >= 0", pc.Name, pc.Weight, pc.MinShare)
		}
		s.addPool(pc).defined = true
	}
	return s, nil
}

func (s *Scheduler) addPool(pc PoolConfig) *pool {
	p := &pool{cfg: pc, drf: s.cfg.Fairness == FairDRF}
	s.pools[pc.Name] = p
	i, _ := slices.BinarySearchFunc(s.poolOrder, pc.Name, func(q *pool, name string) int { return strings.Compare(q.cfg.Name, name) })
	s.poolOrder = slices.Insert(s.poolOrder, i, p)
	return p
}

// removePool forgets a pool no job is left in: one made for a job's pool
// name, so that a session does not remember every name it was ever given.
func (s *Scheduler) removePool(p *pool) {
	delete(s.pools, p.cfg.Name)
	if i, ok := slices.BinarySearchFunc(s.poolOrder, p.cfg.Name, func(q *pool, name string) int { return strings.Compare(q.cfg.Name, name) }); ok {
		s.poolOrder = slices.Delete(s.poolOrder, i, i+1)
	}
}

// AddProfile registers an executor profile. Registering the same profile
// again is harmless; a different one under the same id is an error.
func (s *Scheduler) AddProfile(p Profile) error {
	if err := p.validate(); err != nil {
		return err
	}
	if old, ok := s.profiles[p.ID]; ok {
		if old.Profile != p {
			return fmt.Errorf("profile %d registered as %+v, now %+v", p.ID, old.Profile, p)
		}
		return nil
	}
	s.profiles[p.ID] = &profileState{Profile: p}
	return nil
}

// SubmitJob validates spec and queues its job. Every error names the stage
// and field at fault; nothing is queued then.
func (s *Scheduler) SubmitJob(now time.Time, spec JobSpec) (JobID, error) {
	byName, err := s.checkJob(spec)
	if err != nil {
		return 0, err
	}
	poolName := spec.Pool
	if poolName == "" {
		poolName = DefaultPool
	}
	p, ok := s.pools[poolName]
	if !ok {
		p = s.addPool(DefaultPoolConfig(poolName))
	}
	j := &job{id: s.jobSeq, name: spec.Name, pool: p}
	p.jobs++
	s.jobSeq++
	for _, ss := range spec.Stages {
		st := s.newStage(j, ss)
		j.stages = append(j.stages, st)
		s.stages[st.id] = st
	}
	linkStages(j, spec, byName)
	s.jobs[j.id] = j
	for _, st := range j.stages {
		if len(st.parents) == 0 {
			s.makeRunnable(now, st)
		}
	}
	return j.id, nil
}

// checkJob validates a job's spec, and returns its stages' indices by
// name.
func (s *Scheduler) checkJob(spec JobSpec) (map[string]int, error) {
	if len(spec.Stages) == 0 {
		return nil, fmt.Errorf("job %q has no stages", spec.Name)
	}
	byName := map[string]int{}
	for i, ss := range spec.Stages {
		field := fmt.Sprintf("job %q stage %q", spec.Name, ss.Name)
		if ss.Name == "" {
			return nil, fmt.Errorf("job %q: stage %d has no name", spec.Name, i)
		}
		if _, dup := byName[ss.Name]; dup {
			return nil, fmt.Errorf("%s: a stage of that name comes earlier", field)
		}
		byName[ss.Name] = i
		if ss.Tasks < 1 {
			return nil, fmt.Errorf("%s: tasks %d: want at least 1", field, ss.Tasks)
		}
		if ss.MaxAttempts < 0 || ss.MaxAttempts > MaxAttemptsLimit {
			return nil, fmt.Errorf("%s: maxAttempts %d: want 0 (the default) to %d", field, ss.MaxAttempts, MaxAttemptsLimit)
		}
		prof, ok := s.profiles[ss.Profile]
		if !ok {
			return nil, fmt.Errorf("%s: profile %d is not registered", field, ss.Profile)
		}
		if err := prof.check(field, ss.Request); err != nil {
			return nil, err
		}
		if ss.Gang && ss.Speculation != nil && *ss.Speculation {
			return nil, fmt.Errorf("%s: speculation: a gang stage cannot speculate", field)
		}
		if err := checkTaskLocality(field, ss); err != nil {
			return nil, err
		}
	}
	for _, ss := range spec.Stages {
		for _, a := range ss.After {
			if _, ok := byName[a]; !ok {
				return nil, fmt.Errorf("job %q stage %q: after %q: no such stage in the job", spec.Name, ss.Name, a)
			}
		}
	}
	if cycle := findCycle(spec.Stages, byName); cycle != "" {
		return nil, fmt.Errorf("job %q: stages depend on each other in a cycle: %s", spec.Name, cycle)
	}
	return byName, nil
}

// newStage is a stage of job j as ss specifies it, with the scheduler's
// next stage id, its tasks all fresh.
func (s *Scheduler) newStage(j *job, ss StageSpec) *stage {
	st := &stage{id: s.stageSeq, job: j, spec: ss, profile: s.profiles[ss.Profile], freshEnd: ss.Tasks}
	s.stageSeq++
	st.maxFailures = ss.MaxAttempts
	if st.maxFailures == 0 {
		st.maxFailures = s.cfg.MaxTaskFailures
	}
	if speculates(s.cfg.Speculation, ss) {
		st.specul = newSpeculation(s.cfg.Speculation, ss.Tasks)
	}
	if len(ss.PreferredHosts) > 0 {
		st.preferredHosts = map[string]bool{}
		for _, h := range ss.PreferredHosts {
			st.preferredHosts[h] = true
		}
	}
	if len(ss.PreferredExecutors) > 0 {
		st.preferredExecs = map[ExecutorID]bool{}
		for _, e := range ss.PreferredExecutors {
			st.preferredExecs[e] = true
		}
	}
	if len(ss.TaskLocality) > 0 {
		wait := s.cfg.LocalityWait
		if ss.LocalityWait != nil {
			wait = *ss.LocalityWait
		}
		st.loc = newStageLocality(ss.TaskLocality, wait)
	}
	return st
}

// linkStages links j's stages, in spec's order, to the stages they come
// after (byName: their indices), and those to them.
func linkStages(j *job, spec JobSpec, byName map[string]int) {
	for i, ss := range spec.Stages {
		for _, a := range ss.After {
			parent := j.stages[byName[a]]
			if slices.Contains(j.stages[i].parents, parent) {
				continue // named twice: one edge, or the child is queued twice
			}
			j.stages[i].parents = append(j.stages[i].parents, parent)
			parent.children = append(parent.children, j.stages[i])
		}
	}
}

// findCycle returns a cycle among the stages' After edges as "a -> b -> a",
// or "".
func findCycle(stages []StageSpec, byName map[string]int) string {
	const (
		unseen = iota
		onPath
		done
	)
	mark := make([]int, len(stages))
	var path []string
	var visit func(i int) string
	visit = func(i int) string {
		mark[i] = onPath
		path = append(path, stages[i].Name)
		for _, a := range stages[i].After {
			k := byName[a]
			switch mark[k] {
			case onPath:
				return strings.Join(append(path, a), " -> ")
			case unseen:
				if c := visit(k); c != "" {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		mark[i] = done
		return ""
	}
	for i := range stages {
		if mark[i] == unseen {
			if c := visit(i); c != "" {
				return c
			}
		}
	}
	return ""
}

// schedulingPool is the pool a stage is ordered in: its job's under FAIR,
// the single root list under FIFO.
func (s *Scheduler) schedulingPool(j *job) *pool {
	if s.cfg.Mode == FAIR {
		return j.pool
	}
	return s.root
}

// makeRunnable queues st for placement: its parents have all succeeded.
func (s *Scheduler) makeRunnable(now time.Time, st *stage) {
	st.runnable = true
	st.localityDeadline = now.Add(s.cfg.LocalityWait)
	if st.loc != nil {
		st.loc.start(now)
	}
	p := s.schedulingPool(st.job)
	i, _ := slices.BinarySearchFunc(p.runnable, st, stageOrder)
	p.runnable = slices.Insert(p.runnable, i, st)
	s.joinClass(st)
	s.addGang(st)
	if p.cfg.Mode == FAIR {
		p.stages.push(st)
	}
	if s.cfg.Mode == FAIR && len(p.runnable) == 1 {
		s.fair.push(p)
	}
	if st.hasPreference() {
		s.localized[st] = true
	}
	if st.specul != nil {
		s.addSpeculating(st)
	}
}

// stageOrder is FIFO order: job (submission) first, then stage id.
func stageOrder(a, b *stage) int {
	if a.job.id != b.job.id {
		return int(a.job.id - b.job.id)
	}
	return int(a.id - b.id)
}

func (s *Scheduler) dropRunnable(st *stage) {
	p := s.schedulingPool(st.job)
	if i, ok := slices.BinarySearchFunc(p.runnable, st, stageOrder); ok {
		p.runnable = slices.Delete(p.runnable, i, i+1)
	}
	s.leaveClass(st)
	s.dropGang(st)
	p.stages.remove(st)
	if len(p.runnable) == 0 {
		s.fair.remove(p)
	}
	delete(s.localized, st)
	if st.specul != nil {
		s.dropSpeculating(st)
	}
	st.runnable = false
}
