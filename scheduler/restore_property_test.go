package scheduler

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// An ApplicationMaster's first attempt, a random world (property_test.go),
// runs for a while and dies. A second scheduler is rebuilt from what the
// journal and the executors would tell the second attempt: the jobs
// submitted (those that ended, cancelled), the tasks that succeeded, the
// attempts running with their executors and addresses, restored in a
// random order that has a stage's parents before it. Before placing
// anything it must account as the first did: progress, demand, what each
// executor holds. Run to the end, it runs every task not yet succeeded
// exactly once more, and none twice.
func TestPropertyRestoreRebuildsAnEarlierAttempt(t *testing.T) {
	stats := map[string]int{}
	defer func() { t.Logf("%v", stats) }()
	for seed := range uint64(seedsFor(100)) {
		rng := rand.New(rand.NewPCG(seed, 7))
		cfg := randomConfig(rng)
		// A restart adopts a task's own attempt, not a speculative copy
		// (Adopt knows of one attempt a task): not covered yet.
		cfg.Speculation = SpeculationConfig{}
		w := newWorld(t, seed, cfg, false)
		for range 3 {
			w.addExecutor(w.hosts[w.rng.IntN(len(w.hosts))], false)
		}
		for range 20 + rng.IntN(280) {
			w.step()
		}
		r := restart(t, w, rng)
		stats["restored"] += len(r.done)
		stats["adopted"] += len(r.held)
		stats["jobs"] += len(w.jobs)
		r.compare()
		r.drain()
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
}

// restarted is the second attempt's scheduler beside the first's.
type restarted struct {
	t    *testing.T
	w    *world
	a, b *Scheduler
	done map[TaskID]int // successes, restored or reported to b
	// held are the attempts b runs: adopted, then launched.
	held map[AttemptID]*wattempt
}

// restoreOp is one RestoreSucceeded (exec empty) or Adopt.
type restoreOp struct {
	depth   int
	attempt AttemptID
	exec    ExecutorID
	addrs   []string
}

func restart(t *testing.T, w *world, rng *rand.Rand) *restarted {
	r := &restarted{t: t, w: w, a: w.scheds[0], done: map[TaskID]int{}, held: map[AttemptID]*wattempt{}}
	b, err := New(w.cfg)
	if err != nil {
		t.Fatal(err)
	}
	r.b = b
	for _, p := range propProfiles {
		r.must(b.AddProfile(p))
	}
	for _, ex := range r.a.Executors() {
		r.must(b.AddExecutor(w.now, r.a.executors[ex.ID].spec))
	}
	var ops []restoreOp
	for _, id := range sortedKeys(w.jobs) {
		got, err := b.SubmitJob(w.now, w.jobs[id].spec)
		if err != nil || got != id {
			t.Fatalf("resubmitting job %d: job %d, %v", id, got, err)
		}
		switch aj := r.a.jobs[id]; {
		case aj == nil && w.jobs[id].ok:
			ops = append(ops, r.allSucceeded(id)...)
		case aj == nil || aj.ended:
			r.must(b.CancelJob(id, "ended before the restart"))
		default:
			ops = append(ops, r.journal(aj)...)
		}
	}
	// Any order that restores a stage's parents before it.
	rng.Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
	slices.SortStableFunc(ops, func(x, y restoreOp) int { return x.depth - y.depth })
	for _, op := range ops {
		r.apply(op)
	}
	return r
}

func (r *restarted) must(err error) {
	r.t.Helper()
	if err != nil {
		r.t.Fatal(err)
	}
}

// depth is 0 for a stage without parents, else one more than its
// deepest parent's.
func depth(st *stage) int {
	d := 0
	for _, p := range st.parents {
		d = max(d, 1+depth(p))
	}
	return d
}

// allSucceeded restores every task of job id, which succeeded before the
// restart.
func (r *restarted) allSucceeded(id JobID) []restoreOp {
	var ops []restoreOp
	for _, st := range r.b.jobs[id].stages {
		for idx := range st.spec.Tasks {
			ops = append(ops, restoreOp{depth: depth(st), attempt: AttemptID{Task: TaskID{st.id, idx}}})
		}
	}
	return ops
}

// journal is what the second attempt learns of active job aj: its tasks
// that succeeded, and its attempts running where they run.
func (r *restarted) journal(aj *job) []restoreOp {
	var ops []restoreOp
	for _, st := range aj.stages {
		for idx := range st.spec.Tasks {
			op := restoreOp{depth: depth(st), attempt: AttemptID{Task: TaskID{st.id, idx}}}
			switch stateOf(st, idx) {
			case taskSucceeded:
				ops = append(ops, op)
			case taskRunning:
				t := st.task(idx)
				op.attempt.Attempt, op.exec = int(t.attempts)-1, t.exec.spec.ID
				op.addrs = slices.Clone(t.exec.running[t.slot].addrs)
				ops = append(ops, op)
			}
		}
	}
	return ops
}

func (r *restarted) apply(op restoreOp) {
	r.t.Helper()
	if op.exec == "" {
		r.must(r.b.RestoreSucceeded(r.w.now, op.attempt.Task))
		r.done[op.attempt.Task]++
		return
	}
	r.must(r.b.Adopt(r.w.now, op.exec, op.attempt, op.addrs))
	r.held[op.attempt] = &wattempt{}
}

// compare checks that b accounts as a did, before b places anything.
func (r *restarted) compare() {
	r.t.Helper()
	if msg := checkInternal(r.b); msg != "" {
		r.t.Fatalf("restored: %s", msg)
	}
	for _, id := range sortedKeys(r.w.jobs) {
		aj := r.a.jobs[id]
		if aj == nil || aj.ended {
			continue
		}
		pa, _ := r.a.JobProgress(id)
		pb, ok := r.b.JobProgress(id)
		pa.FailedAttempts = 0 // the journal does not keep them
		if !ok || pa != pb {
			r.t.Fatalf("job %d: progress %+v before the restart, %+v (known %v) after", id, pa, pb, ok)
		}
	}
	for _, p := range propProfiles {
		da, db := r.a.Demand(r.w.now, p.ID), r.b.Demand(r.w.now, p.ID)
		for i := range da {
			da[i].ExcludedOnly = false // nor the hosts excluded
		}
		if !slices.Equal(da, db) {
			r.t.Fatalf("profile %d: demand %+v before the restart, %+v after", p.ID, da, db)
		}
	}
	for id, ex := range r.b.executors {
		if ha, hb := holding(r.a.executors[id]), holding(ex); ha != hb {
			r.t.Fatalf("executor %s holds %s before the restart, %s after", id, ha, hb)
		}
	}
}

// holding renders what executor ex holds for jobs not ended: each
// attempt with its addresses, and each address's free share, recomputed.
func holding(ex *executor) string {
	free := slices.Repeat([]Share{One}, len(ex.gpus.names))
	var out []string
	for _, ref := range ex.running {
		if ref.st.job.ended {
			continue
		}
		t := ref.st.at(ref.idx)
		out = append(out, fmt.Sprintf("s%d/%d#%d%v", ref.st.id, ref.idx, t.attempts-1, ref.addrs))
		for _, a := range ref.addrs {
			free[ex.gpus.index[a]] -= share(ref.st.spec.Request.GPU)
		}
	}
	slices.Sort(out)
	if !slices.Equal(free, ex.gpus.free) && !slices.ContainsFunc(ex.running, func(ref taskRef) bool { return ref.st.job.ended }) {
		out = append(out, fmt.Sprintf("free %v, recorded %v", free, ex.gpus.free))
	}
	return strings.Join(out, " ")
}

// drain gives b an executor of each profile more and lets every attempt,
// adopted or launched, succeed until no job is left.
func (r *restarted) drain() {
	r.t.Helper()
	for _, p := range propProfiles {
		spec := ExecutorSpec{ID: ExecutorID(fmt.Sprintf("fresh%d", p.ID)), Host: "fresh", Profile: p.ID, Cores: p.Cores}
		for g := range p.GPUs {
			spec.GPUs = append(spec.GPUs, fmt.Sprint(g))
		}
		r.must(r.b.AddExecutor(r.w.now, spec))
	}
	for round := 0; len(r.b.jobs) > 0; round++ {
		if round > 500 {
			r.t.Fatalf("%d jobs left after the drain", len(r.b.jobs))
		}
		for _, a := range sortedAttempts(r.held) {
			r.must(r.b.TaskFinished(r.w.now, runsOn(r.b, a), a, TaskResult{Outcome: Succeeded}))
			r.done[a.Task]++
		}
		clear(r.held)
		r.w.now = r.w.now.Add(3 * time.Second)
		for _, l := range r.b.Ready(r.w.now).Launches {
			if r.done[l.Attempt.Task] > 0 {
				r.t.Fatalf("%v launched after its task succeeded", l.Attempt)
			}
			r.held[l.Attempt] = &wattempt{l: l}
		}
	}
	for _, id := range sortedKeys(r.w.jobs) {
		if aj := r.a.jobs[id]; (aj == nil && !r.w.jobs[id].ok) || (aj != nil && aj.ended) {
			continue // cancelled at the restart
		}
		for _, st := range r.w.jobs[id].stages {
			for idx := range r.w.stageTasks(st) {
				if n := r.done[TaskID{st, idx}]; n != 1 {
					r.t.Fatalf("job %d stage %d task %d succeeded %d times", id, st, idx, n)
				}
			}
		}
	}
}
