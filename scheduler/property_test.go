package scheduler

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// The property tests drive schedulers through random workloads: executors
// come and go, jobs (random DAGs, whole and fractional GPUs, locality
// hints, pools) are submitted and cancelled, attempts succeed, fail, fail
// blamelessly, time passes. Every scheduler of a world gets the same events;
// their Ready outputs must be identical at every step. After every Ready an
// independent ledger, built only from the Launches, Kills and reports,
// checks:
//
//   - no executor runs more cores than it has, no GPU address is shared
//     beyond its capacity, a whole address is never shared;
//   - every launch is valid: a live executor, concrete distinct addresses
//     of that executor in the number asked, the next attempt number, a task
//     neither running nor done, a job not ended;
//   - kills are for attempts of ended jobs, or the losers of speculated
//     tasks, once each; a task's attempt that lost is killed at once;
//   - no task has more than two running attempts (its own and a
//     speculative copy), never two on one executor;
//   - Ready is work-conserving: a runnable stage with pending tasks has a
//     reason to wait;
//   - at the end (after a drain with ample executors) every job has exactly
//     one JobResult, every task of a succeeded job succeeded exactly once,
//     no task succeeded twice, and the scheduler holds nothing.

var propProfiles = []Profile{
	{ID: 0, Cores: 4, GPUs: 2},
	{ID: 1, Cores: 8, GPUs: 4},
	{ID: 2, Cores: 2},
}

var propHosts = []string{"h0", "h1", "h2", "h3", "h4"}

type wexec struct {
	spec  ExecutorSpec
	cores int              // in use, per the ledger
	gpus  map[string]Share // in use, per the ledger
}

type wattempt struct {
	l      Launch
	killed bool
}

type wtask struct {
	job       JobID
	maxFail   int
	succeeded int
	attempts  int // launched
	running   int // attempts running: its own, and a speculative copy
	// failures counts the failed reports the scheduler must count;
	// faultLosses the TaskFault executor losses while it ran, which count
	// unless its job ended first (the order is the scheduler's own).
	failures, faultLosses int
	lastFailure           string
	// permanent: a failure it reported would meet every attempt.
	permanent bool
	// notBefore is when its retry backoff ends, at the earliest: the
	// backoff of the failures the ledger knows the scheduler counted.
	notBefore time.Time
}

type wjob struct {
	spec    JobSpec
	stages  []StageID
	results int
	ok      bool
}

type world struct {
	t      testing.TB
	rng    *rand.Rand
	scheds []*Scheduler
	now    time.Time
	cfg    Config

	execs       map[ExecutorID]*wexec
	execSeq     int
	running     map[AttemptID]*wattempt
	ended       map[AttemptID]bool // attempts that ended, ever
	endedRecent map[AttemptID]bool // attempts that ended since the last Ready
	tasks       map[TaskID]*wtask
	jobs        map[JobID]*wjob
	stageReq    map[StageID]TaskRequest
	stagePrefs  map[StageID][]TaskLocality // each task's, if the stage has them
	steps       int
	maxExecs    int
	maxTasks    int // per stage
	reports     int // attempts a report event ends, at most
	hosts       []string
	stats       map[string]int // what happened, to tune the mix (go test -v)
}

func randomConfig(rng *rand.Rand) Config {
	cfg := Config{
		Mode:            SchedulingMode(rng.IntN(2)),
		MaxTaskFailures: 2 + rng.IntN(3),
		Pools: []PoolConfig{
			{Name: "a", Weight: 1, MinShare: 2, Mode: FAIR},
			{Name: "b", Weight: 3, Mode: FIFO},
		},
	}
	if rng.IntN(2) == 0 {
		cfg.LocalityWait = 2 * time.Second
	}
	if rng.IntN(2) == 0 {
		cfg.RetryBackoff = time.Duration(1+rng.IntN(2000)) * time.Millisecond
		cfg.RetryMaxBackoff = time.Duration(1+rng.IntN(20)) * time.Second
	}
	if rng.IntN(3) == 0 {
		cfg.Speculation = SpeculationConfig{Enabled: true, Quantile: 0.5}
	}
	if rng.IntN(3) > 0 {
		cfg.Exclusion = ExclusionConfig{
			Enabled:              true,
			MaxFailuresPerHost:   2 + rng.IntN(2),
			Timeout:              time.Duration(30+rng.IntN(90)) * time.Second,
			UnschedulableTimeout: time.Duration(20+rng.IntN(160)) * time.Second,
		}
	}
	return cfg
}

// newWorld makes n schedulers with cfg; naive[i] makes scheduler i place
// naively.
func newWorld(t testing.TB, seed uint64, cfg Config, naive ...bool) *world {
	w := &world{
		t: t, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), now: t0, cfg: cfg,
		execs: map[ExecutorID]*wexec{}, running: map[AttemptID]*wattempt{}, ended: map[AttemptID]bool{},
		endedRecent: map[AttemptID]bool{}, tasks: map[TaskID]*wtask{}, jobs: map[JobID]*wjob{}, stageReq: map[StageID]TaskRequest{}, stagePrefs: map[StageID][]TaskLocality{},
		stats: map[string]int{}, maxExecs: 12, maxTasks: 6, reports: 1, hosts: slices.Clone(propHosts),
	}
	for _, nv := range naive {
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range propProfiles {
			if err := s.AddProfile(p); err != nil {
				t.Fatal(err)
			}
		}
		if nv {
			useNaive(s)
		}
		w.scheds = append(w.scheds, s)
	}
	return w
}

func (w *world) fatalf(format string, args ...any) {
	w.t.Helper()
	w.t.Fatalf("step %d: "+format, append([]any{w.steps}, args...)...)
}

// each applies an event to every scheduler; their errors must agree.
func (w *world) each(what string, f func(s *Scheduler) error) error {
	w.t.Helper()
	var first error
	for i, s := range w.scheds {
		err := f(s)
		if i == 0 {
			first = err
		} else if fmt.Sprint(err) != fmt.Sprint(first) {
			w.fatalf("%s: scheduler 0 says %v, scheduler %d says %v", what, first, i, err)
		}
	}
	return first
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func sortedAttempts(m map[AttemptID]*wattempt) []AttemptID {
	ks := make([]AttemptID, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, func(a, b AttemptID) int {
		return cmp.Or(cmp.Compare(a.Task.Stage, b.Task.Stage), cmp.Compare(a.Task.Index, b.Task.Index), cmp.Compare(a.Attempt, b.Attempt))
	})
	return ks
}

func (w *world) addExecutor(host string, full bool) {
	p := propProfiles[w.rng.IntN(len(propProfiles))]
	cores, ngpus := p.Cores, p.GPUs
	if !full && w.rng.IntN(4) == 0 { // what registers may differ from the profile
		cores, ngpus = 1+w.rng.IntN(p.Cores), w.rng.IntN(p.GPUs+1)
	}
	spec := ExecutorSpec{ID: ExecutorID(fmt.Sprintf("e%03d", w.execSeq)), Host: host, Rack: propRack(host), Profile: p.ID, Cores: cores}
	w.execSeq++
	for i := range ngpus {
		spec.GPUs = append(spec.GPUs, fmt.Sprintf("gpu%d", (i*3)%ngpus+0*i)) // distinct, not in order
	}
	slices.Sort(spec.GPUs)
	spec.GPUs = slices.Compact(spec.GPUs)
	if err := w.each("AddExecutor", func(s *Scheduler) error { return s.AddExecutor(w.now, spec) }); err != nil {
		w.fatalf("AddExecutor %+v: %v", spec, err)
	}
	w.execs[spec.ID] = &wexec{spec: spec, gpus: map[string]Share{}}
}

func (w *world) removeExecutor() {
	ids := sortedKeys(w.execs)
	if len(ids) == 0 {
		return
	}
	id := ids[w.rng.IntN(len(ids))]
	loss := ExecutorLoss{Reason: "lost", TaskFault: w.rng.IntN(3) == 0}
	if err := w.each("RemoveExecutor", func(s *Scheduler) error { return s.RemoveExecutor(w.now, id, loss) }); err != nil {
		w.fatalf("RemoveExecutor %s: %v", id, err)
	}
	for _, a := range sortedAttempts(w.running) {
		if w.running[a].l.Executor == id {
			if loss.TaskFault && !w.running[a].killed && w.tasks[a.Task].succeeded == 0 {
				t := w.tasks[a.Task]
				t.faultLosses++
				if j := w.scheds[0].jobs[t.job]; j != nil && !j.ended && t.running == 1 {
					w.backedOff(t, t.failures+1) // counted, after the known ones at least
				}
			}
			w.endAttempt(a)
		}
	}
	delete(w.execs, id)
}

var propGPUAmounts = []float64{0, 0, 1.0 / 3, 0.3, 0.5, 0.25, 1, 2, 0.7}

func (w *world) randomJob() JobSpec {
	n := 1 + w.rng.IntN(4)
	spec := JobSpec{Name: fmt.Sprintf("job%d", len(w.jobs)), Pool: []string{"a", "b", "c", ""}[w.rng.IntN(4)]}
	for i := range n {
		p := propProfiles[w.rng.IntN(len(propProfiles))]
		ss := StageSpec{Name: fmt.Sprintf("s%d", i), Tasks: 1 + w.rng.IntN(w.maxTasks), Profile: p.ID, MaxAttempts: w.rng.IntN(4)}
		for k := range i {
			if w.rng.IntN(3) == 0 {
				ss.After = append(ss.After, fmt.Sprintf("s%d", k))
			}
		}
		ss.Request.CPUs = 1 + w.rng.IntN(min(p.Cores, 3))
		if p.GPUs > 0 {
			amount := propGPUAmounts[w.rng.IntN(len(propGPUAmounts))]
			if amount > 0 {
				g, err := ParseGPURequest("gpus", amount)
				if err != nil {
					w.fatalf("%v", err)
				}
				ss.Request.GPU = g
			}
		}
		if w.rng.IntN(4) == 0 {
			ss.PreferredHosts = []string{w.hosts[w.rng.IntN(len(w.hosts))]}
		}
		if w.rng.IntN(8) == 0 {
			ss.PreferredExecutors = []ExecutorID{ExecutorID(fmt.Sprintf("e%03d", w.rng.IntN(w.execSeq+1)))}
		}
		if ss.PreferredHosts == nil && ss.PreferredExecutors == nil && w.rng.IntN(3) == 0 {
			ss.TaskLocality = w.randomTaskLocality(ss.Tasks)
		}
		spec.Stages = append(spec.Stages, ss)
	}
	// Shuffle so parents may come after their children in the spec.
	w.rng.Shuffle(len(spec.Stages), func(i, j int) { spec.Stages[i], spec.Stages[j] = spec.Stages[j], spec.Stages[i] })
	return spec
}

func (w *world) submit() {
	spec := w.randomJob()
	var id JobID
	err := w.each("SubmitJob", func(s *Scheduler) error {
		got, err := s.SubmitJob(w.now, spec)
		if len(w.scheds) > 1 && s != w.scheds[0] && got != id {
			return fmt.Errorf("job id %d, scheduler 0 said %d", got, id)
		}
		id = got
		return err
	})
	if err != nil {
		// Only whole GPUs above a profile's are impossible here.
		if !strings.Contains(err.Error(), "gpus") {
			w.fatalf("SubmitJob %+v: %v", spec, err)
		}
		return
	}
	if _, dup := w.jobs[id]; dup {
		w.fatalf("job id %d reused", id)
	}
	wj := &wjob{spec: spec}
	// Stage ids are handed out in spec order, after every earlier job's.
	st := w.scheds[0].jobs[id].stages
	for i, ss := range spec.Stages {
		wj.stages = append(wj.stages, st[i].id)
		w.stageReq[st[i].id] = ss.Request
		if ss.TaskLocality != nil {
			w.stagePrefs[st[i].id] = ss.TaskLocality
		}
		maxFail := ss.MaxAttempts
		if maxFail == 0 {
			maxFail = w.cfg.MaxTaskFailures
		}
		for k := range ss.Tasks {
			w.tasks[TaskID{st[i].id, k}] = &wtask{job: id, maxFail: maxFail}
		}
	}
	w.jobs[id] = wj
}

func (w *world) cancel() {
	var active []JobID
	for _, id := range sortedKeys(w.jobs) {
		if w.jobs[id].results == 0 {
			active = append(active, id)
		}
	}
	if len(active) == 0 {
		return
	}
	id := active[w.rng.IntN(len(active))]
	// It may have ended since the last Ready: the schedulers must agree.
	w.each("CancelJob", func(s *Scheduler) error { return s.CancelJob(id, "test") })
}

// report ends a running attempt: killed ones report Killed (or, raced,
// Succeeded); others succeed, fail or fail blamelessly.
func (w *world) report(success int) {
	as := sortedAttempts(w.running)
	if len(as) == 0 {
		return
	}
	a := as[w.rng.IntN(len(as))]
	wa := w.running[a]
	var r TaskResult
	switch x := w.rng.IntN(100); {
	case wa.killed && x < 80:
		r = TaskResult{Outcome: Killed, Reason: "killed"}
	case x < success:
		r = TaskResult{Outcome: Succeeded}
	case x < success+(100-success)*2/3:
		r = TaskResult{Outcome: Failed, Reason: fmt.Sprintf("exit %d", x), ExitCode: x, Permanent: w.rng.IntN(20) == 0}
	default:
		r = TaskResult{Outcome: Failed, Reason: "preempted", Blameless: true}
	}
	w.finish(a, r)
}

func (w *world) finish(a AttemptID, r TaskResult) {
	task := w.tasks[a.Task]
	// The job may have ended since the last Ready (its kills are not out
	// yet): then the scheduler abandons the attempt whatever it reports.
	// That much the ledger asks the scheduler.
	// So may the task have succeeded, by its other attempt.
	j := w.scheds[0].jobs[task.job]
	abandoned := w.running[a].killed || j == nil || j.ended || task.succeeded > 0
	if err := w.each("TaskFinished", func(s *Scheduler) error { return s.TaskFinished(w.now, runsOn(s, a), a, r) }); err != nil {
		w.fatalf("TaskFinished %v: %v", a, err)
	}
	switch {
	case abandoned:
	case r.Outcome == Succeeded:
		task.succeeded++
	case !r.Blameless:
		task.failures++
		task.lastFailure = r.Reason
		task.permanent = task.permanent || r.Permanent
		if task.running == 1 {
			// Not while its other attempt runs on: that is not retried.
			w.backedOff(task, task.failures)
		}
	}
	w.endAttempt(a)
}

// backedOff records that task may not run again before the backoff of its
// n-th counted failure, from now, has passed.
func (w *world) backedOff(task *wtask, n int) {
	cfg := w.scheds[0].cfg
	d := cfg.RetryBackoff
	for range n - 1 {
		d = min(2*d, cfg.RetryMaxBackoff)
	}
	if at := w.now.Add(min(d, cfg.RetryMaxBackoff)); at.After(task.notBefore) {
		task.notBefore = at
	}
}

// staleReport reports an attempt that already ended: always refused.
func (w *world) staleReport() {
	if len(w.ended) == 0 {
		return
	}
	var as []AttemptID
	for a := range w.ended {
		as = append(as, a)
	}
	slices.SortFunc(as, func(a, b AttemptID) int {
		return cmp.Or(cmp.Compare(a.Task.Stage, b.Task.Stage), cmp.Compare(a.Task.Index, b.Task.Index), cmp.Compare(a.Attempt, b.Attempt))
	})
	a := as[w.rng.IntN(len(as))]
	err := w.each("stale TaskFinished", func(s *Scheduler) error { return s.TaskFinished(w.now, runsOn(s, a), a, TaskResult{}) })
	if !errors.Is(err, ErrStaleAttempt) {
		w.fatalf("report of ended attempt %v: %v, want ErrStaleAttempt", a, err)
	}
}

func (w *world) endAttempt(a AttemptID) {
	wa := w.running[a]
	if wa == nil {
		w.fatalf("attempt %v ended but was not running", a)
	}
	ex := w.execs[wa.l.Executor]
	ex.cores -= wa.l.Request.CPUs
	for _, n := range wa.l.Addresses {
		ex.gpus[n] -= share(wa.l.Request.GPU)
	}
	delete(w.running, a)
	w.tasks[a.Task].running--
	w.ended[a] = true
	w.endedRecent[a] = true
}

// share is how much of each of its addresses a request takes.
func share(g GPURequest) Share {
	if g.Fraction() > 0 {
		return g.Fraction()
	}
	return One
}

// ready calls Ready on every scheduler, checks they agree, and checks the
// batch against the ledger.
// randomTaskLocality gives each of n tasks up to two preferred hosts,
// with their racks or not, or no preference.
func (w *world) randomTaskLocality(n int) []TaskLocality {
	out := make([]TaskLocality, n)
	for i := range out {
		for range w.rng.IntN(3) {
			h := w.hosts[w.rng.IntN(len(w.hosts))]
			out[i].Hosts = append(out[i].Hosts, h)
			if w.rng.IntN(2) == 0 {
				out[i].Racks = append(out[i].Racks, propRack(h))
			}
		}
	}
	return out
}

// propRack is the rack of a host of the world: two of them, by the
// host name's last byte.
func propRack(host string) string {
	return fmt.Sprintf("rack%d", host[len(host)-1]%2)
}

// checkLocality checks that launch l ran where its Locality says.
func (w *world) checkLocality(l Launch, ex *wexec) {
	prefs := w.stagePrefs[l.Attempt.Task.Stage]
	if prefs == nil {
		if l.Locality != LocalityUnset {
			w.fatalf("launch %s: locality %s for a stage without task locality", fmtLaunch(l), l.Locality)
		}
		return
	}
	p := prefs[l.Attempt.Task.Index]
	ok := true
	switch l.Locality {
	case NodeLocal:
		ok = slices.Contains(p.Hosts, ex.spec.Host)
	case NoPref:
		ok = len(p.Hosts) == 0 && len(p.Racks) == 0
	case RackLocal:
		ok = slices.Contains(p.Racks, ex.spec.Rack)
	case AnyLocality:
		ok = !slices.Contains(p.Hosts, ex.spec.Host) && !slices.Contains(p.Racks, ex.spec.Rack)
	default:
		ok = false
	}
	if !ok {
		w.fatalf("launch %s on %s (%s): %s, but the task prefers %+v", fmtLaunch(l), ex.spec.Host, ex.spec.Rack, l.Locality, p)
	}
	w.stats["launches "+l.Locality.String()]++
}

func (w *world) ready() Ready {
	w.t.Helper()
	var rd Ready
	var want string
	for i, s := range w.scheds {
		got := s.Ready(w.now)
		if i == 0 {
			rd, want = copyReady(got), fmtReadyFull(got)
		} else if g := fmtReadyFull(got); g != want {
			w.fatalf("Ready differs:\nscheduler 0: %s\nscheduler %d: %s", want, i, g)
		}
	}
	for i, s := range w.scheds {
		if msg := checkInternal(s); msg != "" {
			w.fatalf("scheduler %d: %s", i, msg)
		}
	}
	w.apply(rd)
	w.endedRecent = map[AttemptID]bool{}
	w.stats["launches"] += len(rd.Launches)
	w.stats["kills"] += len(rd.Kills)
	for _, f := range rd.Finished {
		switch {
		case f.Succeeded:
			w.stats["jobs succeeded"]++
		case strings.HasPrefix(f.Reason, "cancelled"):
			w.stats["jobs cancelled"]++
		case strings.Contains(f.Reason, "cannot run anywhere"):
			w.stats["jobs unschedulable"]++
		default:
			w.stats["jobs failed"]++
		}
	}
	return rd
}

func fmtReadyFull(rd Ready) string {
	var b strings.Builder
	for _, l := range rd.Launches {
		fmt.Fprintf(&b, "L %v j%d %s %s %+v %q;", l.Attempt, l.Job, l.Executor, l.Host, l.Request, l.Addresses)
	}
	for _, k := range rd.Kills {
		fmt.Fprintf(&b, "K %v %s %q;", k.Attempt, k.Executor, k.Reason)
	}
	for _, f := range rd.Finished {
		fmt.Fprintf(&b, "F %+v;", f)
	}
	return b.String()
}

func (w *world) apply(rd Ready) {
	w.t.Helper()
	// Results first: kills and launches are checked against them.
	ending := map[JobID]bool{}
	for _, f := range rd.Finished {
		wj := w.jobs[f.Job]
		if wj == nil {
			w.fatalf("result for unknown job %+v", f)
		}
		wj.results++
		wj.ok = f.Succeeded
		if wj.results != 1 {
			w.fatalf("job %d: result %d: %+v", f.Job, wj.results, f)
		}
		if f.Name != wj.spec.Name {
			w.fatalf("job %d: result names %q, want %q", f.Job, f.Name, wj.spec.Name)
		}
		if f.Succeeded {
			for _, st := range wj.stages {
				for k := range w.stageTasks(st) {
					if c := w.tasks[TaskID{st, k}].succeeded; c != 1 {
						w.fatalf("job %d succeeded with stage %d task %d succeeded %d times", f.Job, st, k, c)
					}
				}
			}
			// The losing attempts of speculated tasks may run: they
			// are killed (checked below).
		} else {
			if f.Reason == "" {
				w.fatalf("job %d failed without a reason", f.Job)
			}
			ending[f.Job] = true
			w.checkFailureReason(f)
		}
	}
	for _, k := range rd.Kills {
		task := w.tasks[k.Attempt.Task]
		loser := task != nil && task.succeeded == 1
		if task == nil || !loser && (w.jobs[task.job].results != 1 || w.jobs[task.job].ok) {
			w.fatalf("kill %+v of a task whose job has not failed, nor that succeeded", k)
		}
		if wa := w.running[k.Attempt]; wa != nil {
			if wa.killed || wa.l.Executor != k.Executor {
				w.fatalf("kill %+v: killed before %v, or on the wrong executor (%s)", k, wa.killed, wa.l.Executor)
			}
			wa.killed = true
		} else if !w.endedRecent[k.Attempt] {
			w.fatalf("kill %+v of an attempt that is not running", k)
		}
	}
	for _, a := range sortedAttempts(w.running) {
		if ending[w.tasks[a.Task].job] && !w.running[a].killed {
			w.fatalf("job %d failed, its attempt %v not killed", w.tasks[a.Task].job, a)
		}
		if w.tasks[a.Task].succeeded > 0 && !w.running[a].killed {
			w.fatalf("task %v succeeded, its other attempt %v not killed", a.Task, a)
		}
	}
	for _, l := range rd.Launches {
		ex := w.execs[l.Executor]
		task := w.tasks[l.Attempt.Task]
		switch {
		case ex == nil:
			w.fatalf("launch %s on an executor that is gone", fmtLaunch(l))
		case task == nil:
			w.fatalf("launch %s of an unknown task", fmtLaunch(l))
		case task.job != l.Job || w.jobs[l.Job].results != 0:
			w.fatalf("launch %s: job %d (task's %d) has ended or is wrong", fmtLaunch(l), l.Job, task.job)
		case task.succeeded > 0 || task.running != 0 && !l.Speculative || l.Speculative && task.running != 1:
			w.fatalf("launch %s of a task running (%d attempts) or done (%d)", fmtLaunch(l), task.running, task.succeeded)
		case l.Speculative && !w.cfg.Speculation.Enabled:
			w.fatalf("launch %s: speculative, with speculation off", fmtLaunch(l))
		case l.Attempt.Attempt != task.attempts:
			w.fatalf("launch %s: attempt %d, want %d", fmtLaunch(l), l.Attempt.Attempt, task.attempts)
		case !l.Speculative && w.now.Before(task.notBefore):
			w.fatalf("launch %s at %v, before its retry backoff ends at %v", fmtLaunch(l), w.now, task.notBefore)
		case l.Host != ex.spec.Host:
			w.fatalf("launch %s: host %s, executor's %s", fmtLaunch(l), l.Host, ex.spec.Host)
		case l.Request != w.stageReq[l.Attempt.Task.Stage]:
			w.fatalf("launch %s: request %+v", fmtLaunch(l), l.Request)
		}
		w.checkLocality(l, ex)
		g := l.Request.GPU
		want := g.Whole()
		if g.Fraction() > 0 {
			want = 1
		}
		if len(l.Addresses) != want {
			w.fatalf("launch %s: %d addresses for %s GPUs", fmtLaunch(l), len(l.Addresses), g)
		}
		for i, n := range l.Addresses {
			if !slices.Contains(ex.spec.GPUs, n) || slices.Contains(l.Addresses[:i], n) {
				w.fatalf("launch %s: address %q not the executor's, or twice", fmtLaunch(l), n)
			}
			ex.gpus[n] += share(g)
			if ex.gpus[n] > One {
				w.fatalf("launch %s: address %s of %s at %d > One", fmtLaunch(l), n, l.Executor, ex.gpus[n])
			}
		}
		ex.cores += l.Request.CPUs
		if ex.cores > ex.spec.Cores {
			w.fatalf("launch %s: executor %s runs %d cores of %d", fmtLaunch(l), l.Executor, ex.cores, ex.spec.Cores)
		}
		task.attempts++
		task.running++
		w.running[l.Attempt] = &wattempt{l: l}
		if l.Speculative {
			w.stats["speculative launches"]++
		}
	}
	w.checkAttemptsPerTask()
	// A task out of attempts has ended its job.
	for _, id := range sortedKeys(w.jobs) {
		if w.jobs[id].results > 0 {
			continue
		}
		for _, st := range w.jobs[id].stages {
			for k := range w.stageTasks(st) {
				if t := w.tasks[TaskID{st, k}]; t.failures >= t.maxFail || t.permanent {
					w.fatalf("job %d: stage %d task %d failed %d of %d times, yet the job goes on", id, st, k, t.failures, t.maxFail)
				}
			}
		}
	}
	// Work-conserving: whatever still waits has a reason to.
	s := w.scheds[0]
	for _, id := range sortedKeys(w.jobs) {
		if w.jobs[id].results > 0 {
			continue
		}
		for _, r := range s.WhyPending(w.now, id) {
			w.stats[fmt.Sprintf("pending reason %d", r.Reason)]++
			if r.Reason == ReasonNone {
				w.fatalf("job %d stage %s: %d tasks pending with nothing in the way: %s", id, r.Name, r.Pending, r.Message)
			}
		}
	}
	if t, ok := s.Wakeup(w.now); ok && !t.After(w.now) {
		w.fatalf("wakeup %v not after now %v", t, w.now)
	}
}

// checkAttemptsPerTask: a task runs at most two attempts, its own and a
// speculative copy, never two on one executor.
func (w *world) checkAttemptsPerTask() {
	on := map[TaskID][]ExecutorID{}
	for _, a := range sortedAttempts(w.running) {
		execs := append(on[a.Task], w.running[a].l.Executor)
		if len(execs) > 2 || len(execs) == 2 && execs[0] == execs[1] {
			w.fatalf("task %v runs attempts on %v", a.Task, execs)
		}
		on[a.Task] = execs
	}
}

// checkFailureReason checks a "task failed N times" result against the
// ledger: N is the task's maximum, and the ledger's count agrees.
func (w *world) checkFailureReason(f JobResult) {
	var idx, n int
	var name string
	if _, err := fmt.Sscanf(f.Reason, "task %d of stage %q failed, and would on every attempt", &idx, &name); err == nil {
		if t := w.taskNamed(f, idx, name); !t.permanent || !strings.HasSuffix(f.Reason, ": "+t.lastFailure) {
			w.fatalf("job %d: %q, ledger: %+v", f.Job, f.Reason, t)
		}
		return
	}
	once := strings.Replace(f.Reason, " failed once;", " failed 1 times;", 1) // as Sscanf reads it
	if _, err := fmt.Sscanf(once, "task %d of stage %q failed %d times", &idx, &name, &n); err != nil {
		if !strings.HasPrefix(f.Reason, "cancelled: ") && !strings.Contains(f.Reason, "cannot run anywhere") {
			w.fatalf("job %d: unexpected reason %q", f.Job, f.Reason)
		}
		return
	}
	t := w.taskNamed(f, idx, name)
	if n != t.maxFail || n < t.failures || n > t.failures+t.faultLosses {
		w.fatalf("job %d: %q, ledger: %+v", f.Job, f.Reason, t)
	}
	if t.failures == n && !strings.HasSuffix(f.Reason, "; last failure: "+t.lastFailure) {
		w.fatalf("job %d: %q, want the last failure %q", f.Job, f.Reason, t.lastFailure)
	}
}

// taskNamed is the ledger's task idx of the stage called name in f's job.
func (w *world) taskNamed(f JobResult, idx int, name string) *wtask {
	wj := w.jobs[f.Job]
	i := slices.IndexFunc(wj.spec.Stages, func(ss StageSpec) bool { return ss.Name == name })
	if i < 0 {
		w.fatalf("job %d: reason %q names no stage of it", f.Job, f.Reason)
	}
	t := w.tasks[TaskID{wj.stages[i], idx}]
	if t == nil {
		w.fatalf("job %d: reason %q names no task of it", f.Job, f.Reason)
	}
	return t
}

func (w *world) stageTasks(st StageID) int {
	n := 0
	for w.tasks[TaskID{st, n}] != nil {
		n++
	}
	return n
}

// step runs one random event, or a few, then Ready.
func (w *world) step() {
	w.steps++
	for range 1 + w.rng.IntN(3) {
		switch x := w.rng.IntN(100); {
		case x < 5 && len(w.execs) < w.maxExecs:
			w.addExecutor(w.hosts[w.rng.IntN(len(w.hosts))], false)
		case x < 7:
			w.removeExecutor()
		case x < 12 && len(w.jobs) < 40:
			w.submit()
		case x < 13:
			w.cancel()
		case x < 20:
			w.now = w.now.Add(time.Duration(w.rng.IntN(3000)) * time.Millisecond)
		case x < 21:
			w.now = w.now.Add(time.Duration(w.rng.IntN(150)) * time.Second)
		case x < 23:
			w.staleReport()
		default:
			for range 1 + w.rng.IntN(w.reports) {
				w.report(85)
			}
		}
	}
	w.ready()
}

// drain adds ample executors on fresh hosts and lets every attempt succeed
// until every job has ended; then nothing may be left.
func (w *world) drain() {
	for i := range len(propProfiles) * 4 {
		host := fmt.Sprintf("drain%d", i)
		for {
			before := len(w.execs)
			w.addExecutor(host, true)
			if w.execs[ExecutorID(fmt.Sprintf("e%03d", w.execSeq-1))].spec.Profile == ProfileID(i%len(propProfiles)) || len(w.execs) > before+6 {
				break
			}
		}
	}
	for round := 0; ; round++ {
		if round > 500 {
			w.fatalf("jobs still running after the drain: %d attempts running", len(w.running))
		}
		for _, a := range sortedAttempts(w.running) {
			r := TaskResult{Outcome: Succeeded}
			if w.running[a].killed {
				r.Outcome = Killed
			}
			w.finish(a, r)
		}
		w.now = w.now.Add(3 * time.Second)
		w.steps++
		w.ready()
		done := len(w.running) == 0
		for _, wj := range w.jobs {
			done = done && wj.results == 1
		}
		if done {
			break
		}
	}
	for i, s := range w.scheds {
		if len(s.jobs) != 0 || len(s.stages) != 0 {
			w.fatalf("scheduler %d: %d jobs, %d stages left", i, len(s.jobs), len(s.stages))
		}
		for _, ex := range s.executors {
			if ex.freeCores != ex.spec.Cores || len(ex.running) != 0 || slices.ContainsFunc(ex.gpus.free, func(f Share) bool { return f != One }) {
				w.fatalf("scheduler %d: executor %s holds something: %d/%d cores free, %v", i, ex.spec.ID, ex.freeCores, ex.spec.Cores, ex.gpus.free)
			}
		}
		for _, p := range s.pools {
			if p.running != 0 || len(p.runnable) != 0 {
				w.fatalf("scheduler %d: pool %s: %d running, %d runnable", i, p.cfg.Name, p.running, len(p.runnable))
			}
		}
	}
	for id, t := range w.tasks {
		if t.succeeded > 1 || (w.jobs[t.job].ok && t.succeeded != 1) {
			w.fatalf("task %+v succeeded %d times (job ok %v)", id, t.succeeded, w.jobs[t.job].ok)
		}
	}
}

func runWorld(t *testing.T, seeds, steps int, naive ...bool) {
	runWorldOf(t, seeds, steps, 0, naive...)
}

// runWorldOf starts each world with execs executors (3 when 0) and lets it
// grow to execs+12: more than 64 of a profile take the free-core bitmap
// past one word.
func runWorldOf(t *testing.T, seeds, steps, execs int, naive ...bool) {
	stats := map[string]int{}
	defer func() { t.Logf("%d seeds: %v", seeds, stats) }()
	for seed := range uint64(seeds) {
		rng := rand.New(rand.NewPCG(seed, 1))
		w := newWorld(t, seed, randomConfig(rng), naive...)
		w.maxExecs += execs
		w.maxTasks += execs / 4
		w.reports += execs / 32
		for i := range execs / 4 {
			w.hosts = append(w.hosts, fmt.Sprintf("m%d", i))
		}
		for range max(execs, 3) {
			w.addExecutor(w.hosts[w.rng.IntN(len(w.hosts))], false)
		}
		for range steps {
			w.step()
			if t.Failed() {
				t.Fatalf("seed %d", seed)
			}
		}
		for k, v := range w.stats {
			stats[k] += v
		}
		stats["jobs"] += len(w.jobs)
		w.drain()
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
}

// (a) capacity, (b) every task ends once and every job gets one result,
// plus launch validity and work conservation.
func TestPropertyInvariants(t *testing.T) {
	runWorld(t, seedsFor(200), 300, false)
}

// (d) the fast placement makes exactly the naive one's decisions.
func TestPropertyFastMatchesNaive(t *testing.T) {
	runWorld(t, seedsFor(150), 300, false, true)
}

// (d) with hundreds of executors: the bitmap spans several words.
func TestPropertyFastMatchesNaiveManyExecutors(t *testing.T) {
	runWorldOf(t, seedsFor(10), 200, 200, false, true)
}

// Determinism: two fresh schedulers, the same events, the same decisions.
func TestPropertyDeterminism(t *testing.T) {
	runWorld(t, seedsFor(40), 300, false, false)
}

// seedScale divides the seeds under -race (race_test.go).
var seedScale = 1

// seedsFor scales a property test down under -short and -race.
func seedsFor(n int) int {
	if testing.Short() {
		n /= 10
	}
	return max(n/seedScale, 1)
}
