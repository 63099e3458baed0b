package scheduler

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// The gang property test drives one scheduler through random worlds of
// gangs beside ordinary jobs, in FIFO and FAIR pools: ranks fail, fail
// blamelessly, succeed; executors are lost and come; stopped ranks
// report late; time passes past gang timeouts, hard and soft. A ledger
// built only from Ready's Launches, Kills, GangTimeouts and Finished,
// and the reports it made, checks after every Ready:
//
//   - a gang launches whole: every task of its stage in one batch, while
//     none of its attempts runs;
//   - a restarting gang keeps its slots: from a rank's failure until the
//     gang launches again, times out or its job ends, no stage but a gang
//     launches a task on its profile's executors;
//   - a gang that is the only one with work, none of its attempts
//     running, launches as soon as its profile's free slots hold it;
//   - no executor runs more cores or GPUs than it has;
//
// and at the end, once everything left is let succeed, that every job
// ended (nothing held forever).

// gangProfiles: GPU executors the gangs and 2-GPU tasks share, and CPU
// ones.
var gangProfiles = []Profile{{ID: 0, Cores: 2, GPUs: 2}, {ID: 1, Cores: 4}}

type gangWorld struct {
	t       *testing.T
	rng     *rand.Rand
	s       *Scheduler
	now     time.Time
	execs   map[ExecutorID]*gexec
	execSeq int
	running map[AttemptID]*grun
	stages  map[StageID]*gstage
	ended   map[JobID]bool
	jobs    []JobID
	stats   map[string]int
}

type gexec struct {
	spec        ExecutorSpec
	cores, gpus int // in use
}

type grun struct {
	l        Launch
	stopping bool // a kill went out for it
}

type gstage struct {
	job        JobID
	spec       StageSpec
	gang       bool // still launched as a gang (not demoted by a soft timeout)
	restarting bool // a rank failed; not launched again, timed out or ended since
	done       bool
}

func newGangWorld(t *testing.T, seed uint64) *gangWorld {
	rng := rand.New(rand.NewPCG(seed, 34))
	cfg := Config{
		Mode:            SchedulingMode(rng.IntN(2)),
		MaxTaskFailures: 3 + rng.IntN(3),
		Pools:           []PoolConfig{{Name: "prod", Weight: 1, Mode: FAIR}, {Name: "adhoc", Weight: 1 + rng.IntN(3), Mode: FIFO}},
		Gang:            GangConfig{Timeout: time.Duration(2+rng.IntN(20)) * time.Second, MaxRetries: rng.IntN(3), Soft: rng.IntN(4) == 0},
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range gangProfiles {
		if err := s.AddProfile(p); err != nil {
			t.Fatal(err)
		}
	}
	w := &gangWorld{t: t, rng: rng, s: s, now: t0, execs: map[ExecutorID]*gexec{}, running: map[AttemptID]*grun{},
		stages: map[StageID]*gstage{}, ended: map[JobID]bool{}, stats: map[string]int{}}
	for range 2 {
		w.addExecutor(0)
		w.addExecutor(1)
	}
	return w
}

func (w *gangWorld) must(what string, err error) {
	w.t.Helper()
	if err != nil {
		w.t.Fatalf("%s: %v", what, err)
	}
}

func (w *gangWorld) addExecutor(p ProfileID) {
	prof := gangProfiles[p]
	spec := ExecutorSpec{ID: ExecutorID(fmt.Sprintf("e%03d", w.execSeq)), Host: fmt.Sprintf("h%d", w.execSeq%3), Profile: p, Cores: prof.Cores}
	for i := range prof.GPUs {
		spec.GPUs = append(spec.GPUs, fmt.Sprint(i))
	}
	w.execSeq++
	w.must("AddExecutor", w.s.AddExecutor(w.now, spec))
	w.execs[spec.ID] = &gexec{spec: spec}
}

// submit submits a gang (1 to 4 ranks of 1 cpu, and 1 GPU on profile 0)
// or an ordinary job (on profile 0 of 2 GPUs a task, or of CPUs).
func (w *gangWorld) submit() {
	ss := StageSpec{Name: "s", Tasks: 1 + w.rng.IntN(6), Request: TaskRequest{CPUs: 1}, Profile: ProfileID(w.rng.IntN(2))}
	pool := "adhoc"
	if w.rng.IntN(2) == 0 {
		ss.Gang, ss.Tasks, pool = true, 1+w.rng.IntN(4), "prod"
	}
	if ss.Profile == 0 {
		g := 1.0
		if !ss.Gang {
			g = 2
		}
		ss.Request.GPU = gpu(w.t, g)
	}
	id, err := w.s.SubmitJob(w.now, JobSpec{Name: fmt.Sprintf("j%d", len(w.jobs)), Pool: pool, Stages: []StageSpec{ss}})
	w.must("SubmitJob", err)
	w.jobs = append(w.jobs, id)
	st := w.s.jobs[id].stages[0]
	w.stages[st.id] = &gstage{job: id, spec: ss, gang: ss.Gang}
}

// report ends a running attempt: a stopping one as killed, any other
// succeeding, failing or failing blamelessly.
func (w *gangWorld) report() {
	ids := runningAttempts(w.running)
	if len(ids) == 0 {
		return
	}
	a := ids[w.rng.IntN(len(ids))]
	r := w.running[a]
	res := TaskResult{Outcome: Killed, Reason: "stopped"}
	if !r.stopping {
		switch n := w.rng.IntN(6); {
		case n < 3:
			res = TaskResult{Outcome: Succeeded}
		case n < 5:
			res = TaskResult{Outcome: Failed, Reason: "exit status 1"}
		default:
			res = TaskResult{Outcome: Failed, Reason: "lost", Blameless: true}
		}
	}
	w.must(fmt.Sprintf("TaskFinished(%v)", a), w.s.TaskFinished(w.now, r.l.Executor, a, res))
	w.stats["reports"]++
	w.ended1(a, res.Outcome != Succeeded)
}

// ended1 forgets attempt a, which ended; failed says it did not
// succeed: a gang's rank failing (not one stopped) starts its restart.
func (w *gangWorld) ended1(a AttemptID, failed bool) {
	r := w.running[a]
	ex := w.execs[r.l.Executor]
	ex.cores -= r.l.Request.CPUs
	ex.gpus -= len(r.l.Addresses)
	delete(w.running, a)
	st := w.stages[a.Task.Stage]
	if failed && !r.stopping && st.gang && !w.ended[st.job] {
		st.restarting = true
		w.stats["restarts"]++
	}
}

func (w *gangWorld) removeExecutor() {
	ids := make([]ExecutorID, 0, len(w.execs))
	for id := range w.execs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	id := ids[w.rng.IntN(len(ids))]
	w.must("RemoveExecutor", w.s.RemoveExecutor(w.now, id, ExecutorLoss{Reason: "lost"}))
	for _, a := range runningAttempts(w.running) {
		if w.running[a].l.Executor == id {
			w.ended1(a, true)
		}
	}
	delete(w.execs, id)
	w.stats["executors lost"]++
}

// runningAttempts lists m's attempts in order, for a seed to replay alike.
func runningAttempts(m map[AttemptID]*grun) []AttemptID {
	ids := make([]AttemptID, 0, len(m))
	for a := range m {
		ids = append(ids, a)
	}
	slices.SortFunc(ids, func(a, b AttemptID) int {
		if a.Task.Stage != b.Task.Stage {
			return int(a.Task.Stage - b.Task.Stage)
		}
		return a.Task.Index - b.Task.Index
	})
	return ids
}

// ready calls Ready and checks its batch against the ledger.
func (w *gangWorld) ready() {
	rd := w.s.Ready(w.now)
	for _, to := range rd.GangTimeouts {
		st := w.stages[to.Stage]
		st.restarting = false
		st.gang = st.gang && !to.Soft
		w.stats["gang timeouts"]++
	}
	for _, f := range rd.Finished {
		w.ended[f.Job] = true
	}
	for _, id := range rd.StagesSucceeded {
		w.stages[id].done = true
	}
	for _, k := range rd.Kills {
		if r := w.running[k.Attempt]; r != nil {
			r.stopping = true
		}
	}
	w.gangLaunches(rd.Launches)
	for _, l := range rd.Launches {
		st := w.stages[l.Attempt.Task.Stage]
		if !st.gang {
			for id, g := range w.stages {
				if g.restarting && !w.ended[g.job] && g.spec.Profile == st.spec.Profile {
					w.t.Fatalf("%s went to stage %d while gang stage %d restarts on profile %d", fmtLaunch(l), l.Attempt.Task.Stage, id, st.spec.Profile)
				}
			}
		}
		ex := w.execs[l.Executor]
		ex.cores += l.Request.CPUs
		ex.gpus += len(l.Addresses)
		if ex.cores > ex.spec.Cores || ex.gpus > len(ex.spec.GPUs) {
			w.t.Fatalf("%s: executor %s runs %d cores, %d GPUs", fmtLaunch(l), l.Executor, ex.cores, ex.gpus)
		}
		w.running[l.Attempt] = &grun{l: l}
	}
	w.checkLive()
	if msg := checkInternal(w.s); msg != "" {
		w.t.Fatal(msg)
	}
}

// gangLaunches checks that each gang launching launches whole, none of
// its attempts running, and ends its restart.
func (w *gangWorld) gangLaunches(ls []Launch) {
	by := map[StageID][]int{}
	for _, l := range ls {
		if st := w.stages[l.Attempt.Task.Stage]; st.gang {
			by[l.Attempt.Task.Stage] = append(by[l.Attempt.Task.Stage], l.Attempt.Task.Index)
		}
	}
	for id, idx := range by {
		st := w.stages[id]
		slices.Sort(idx)
		for a := range w.running {
			if a.Task.Stage == id {
				w.t.Fatalf("gang stage %d launched %v while its %v runs", id, idx, a)
			}
		}
		if len(idx) != st.spec.Tasks || idx[0] != 0 || idx[len(idx)-1] != st.spec.Tasks-1 {
			w.t.Fatalf("gang stage %d of %d tasks launched %v", id, st.spec.Tasks, idx)
		}
		if st.restarting {
			w.stats["reruns"]++
		}
		st.restarting = false
	}
}

// checkLive: the one gang with work left, none of its attempts running,
// has launched if its profile's free slots hold all its tasks.
func (w *gangWorld) checkLive() {
	var live []StageID
	for id, st := range w.stages {
		if st.gang && !st.done && !w.ended[st.job] {
			live = append(live, id)
		}
	}
	if len(live) != 1 {
		return
	}
	id, st := live[0], w.stages[live[0]]
	for a := range w.running {
		if a.Task.Stage == id {
			return
		}
	}
	free := 0
	for _, ex := range w.execs {
		if ex.spec.Profile != st.spec.Profile {
			continue
		}
		n := ex.spec.Cores - ex.cores
		if st.spec.Profile == 0 {
			n = min(n, len(ex.spec.GPUs)-ex.gpus)
		}
		free += n
	}
	if free >= st.spec.Tasks {
		w.t.Fatalf("gang stage %d (%d tasks) waits with %d slots free on profile %d", id, st.spec.Tasks, free, st.spec.Profile)
	}
}

func (w *gangWorld) step() {
	switch n := w.rng.IntN(20); {
	case n < 3 && len(w.jobs) < 30:
		w.submit()
	case n < 13:
		w.report()
	case n < 14 && len(w.execs) > 2:
		w.removeExecutor()
	case n < 15 && len(w.execs) < 8:
		w.addExecutor(ProfileID(w.rng.IntN(2)))
	default:
		w.now = w.now.Add(time.Duration(w.rng.IntN(3000)) * time.Millisecond)
	}
	w.ready()
}

// drain lets every attempt succeed (a stopping one reports stopped),
// with executors enough, until every job has ended.
func (w *gangWorld) drain() {
	for range 2 {
		w.addExecutor(0)
		w.addExecutor(1)
	}
	for range 10000 {
		if len(w.ended) == len(w.jobs) {
			return
		}
		if len(w.running) == 0 {
			w.now = w.now.Add(time.Second)
		}
		for _, a := range runningAttempts(w.running) {
			res := TaskResult{Outcome: Succeeded}
			if w.running[a].stopping {
				res = TaskResult{Outcome: Killed}
			}
			w.must("TaskFinished", w.s.TaskFinished(w.now, w.running[a].l.Executor, a, res))
			w.ended1(a, res.Outcome != Succeeded)
		}
		w.ready()
	}
	w.t.Fatalf("%d of %d jobs never ended", len(w.jobs)-len(w.ended), len(w.jobs))
}

// Seeded worlds of gangs beside ordinary jobs keep the gang invariants
// above (go test -v shows how often each thing happened).
func TestPropertyGangRestartsKeepTheirSlots(t *testing.T) {
	stats := map[string]int{}
	for seed := range uint64(seedsFor(150)) {
		w := newGangWorld(t, seed)
		for range 400 {
			w.step()
		}
		w.drain()
		for k, v := range w.stats {
			stats[k] += v
		}
	}
	t.Logf("%v", stats)
}
