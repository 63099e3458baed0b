package scheduler

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

// t0 is the time every test starts at.
var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// harness drives one scheduler with a clock of its own, failing the test on
// any unexpected error.
type harness struct {
	t   testing.TB
	s   *Scheduler
	now time.Time
}

func newHarness(t testing.TB, cfg Config, profiles ...Profile) *harness {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(profiles) == 0 {
		profiles = []Profile{{ID: 0, Cores: 4, GPUs: 2}}
	}
	for _, p := range profiles {
		if err := s.AddProfile(p); err != nil {
			t.Fatal(err)
		}
	}
	return &harness{t: t, s: s, now: t0}
}

func (h *harness) advance(d time.Duration) { h.now = h.now.Add(d) }

// exec registers executor id on host with cores and GPU addresses, of
// profile 0.
func (h *harness) exec(id, host string, cores int, gpus ...string) {
	h.t.Helper()
	h.execOf(0, id, host, cores, gpus...)
}

func (h *harness) execOf(p ProfileID, id, host string, cores int, gpus ...string) {
	h.t.Helper()
	if err := h.s.AddExecutor(h.now, ExecutorSpec{ID: ExecutorID(id), Host: host, Profile: p, Cores: cores, GPUs: gpus}); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) submit(spec JobSpec) JobID {
	h.t.Helper()
	id, err := h.s.SubmitJob(h.now, spec)
	if err != nil {
		h.t.Fatal(err)
	}
	return id
}

// ready calls Ready and returns a deep copy, safe to keep.
func (h *harness) ready() Ready {
	return copyReady(h.s.Ready(h.now))
}

func (h *harness) finish(a AttemptID, r TaskResult) {
	h.t.Helper()
	if err := h.s.TaskFinished(h.now, runsOn(h.s, a), a, r); err != nil {
		h.t.Fatalf("TaskFinished(%v): %v", a, err)
	}
}

func (h *harness) succeed(ls ...Launch) {
	h.t.Helper()
	for _, l := range ls {
		h.finish(l.Attempt, TaskResult{Outcome: Succeeded})
	}
}

func (h *harness) fail(l Launch, reason string) {
	h.t.Helper()
	h.finish(l.Attempt, TaskResult{Outcome: Failed, Reason: reason})
}

func copyReady(rd Ready) Ready {
	out := Ready{
		Launches:        slices.Clone(rd.Launches),
		Kills:           slices.Clone(rd.Kills),
		StagesSucceeded: slices.Clone(rd.StagesSucceeded),
		Finished:        slices.Clone(rd.Finished),
		GangTimeouts:    slices.Clone(rd.GangTimeouts),
		GangTasksDone:   slices.Clone(rd.GangTasksDone),
		Failures:        slices.Clone(rd.Failures),
	}
	for i := range out.Launches {
		out.Launches[i].Addresses = slices.Clone(out.Launches[i].Addresses)
	}
	return out
}

func gpu(t testing.TB, amount float64) GPURequest {
	t.Helper()
	g, err := ParseGPURequest("gpus", amount)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// oneStage is a job of one stage of n tasks asking cpus and g.
func oneStage(name string, n, cpus int, g GPURequest) JobSpec {
	return JobSpec{Name: name, Stages: []StageSpec{{Name: name, Tasks: n, Request: TaskRequest{CPUs: cpus, GPU: g}}}}
}

// fmtLaunch renders a launch compactly: "s0/1#0@e1[0,1]".
func fmtLaunch(l Launch) string {
	return fmt.Sprintf("s%d/%d#%d@%s[%s]", l.Attempt.Task.Stage, l.Attempt.Task.Index, l.Attempt.Attempt, l.Executor, strings.Join(l.Addresses, ","))
}

func fmtLaunches(ls []Launch) string {
	var b []string
	for _, l := range ls {
		b = append(b, fmtLaunch(l))
	}
	return strings.Join(b, " ")
}

// perExecutor counts launches by executor.
func perExecutor(ls []Launch) map[ExecutorID]int {
	m := map[ExecutorID]int{}
	for _, l := range ls {
		m[l.Executor]++
	}
	return m
}

// launchesOf keeps the launches of job j.
func launchesOf(ls []Launch, j JobID) []Launch {
	var out []Launch
	for _, l := range ls {
		if l.Job == j {
			out = append(out, l)
		}
	}
	return out
}

func wantErr(t testing.TB, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Fatalf("error %q does not contain %q", err, p)
		}
	}
}

// checkChunks verifies a stage's chunks against its tasks: one for each
// chunkTasks launched, each counting the tasks in it not succeeded, and
// dropped once none is left (or, for an ended job, none runs).
func checkChunks(st *stage) string {
	if want := (st.launched + chunkTasks - 1) / chunkTasks; len(st.chunks) != want {
		return fmt.Sprintf("stage %d: %d chunks for %d tasks launched, want %d", st.id, len(st.chunks), st.launched, want)
	}
	for c, ch := range st.chunks {
		if ch.tasks == nil {
			if ch.left != 0 && !st.job.ended {
				return fmt.Sprintf("stage %d chunk %d dropped with %d tasks left", st.id, c, ch.left)
			}
			continue
		}
		if want := min(chunkTasks, st.spec.Tasks-c*chunkTasks); len(ch.tasks) != want {
			return fmt.Sprintf("stage %d chunk %d: %d tasks, want %d", st.id, c, len(ch.tasks), want)
		}
		left := 0
		for _, t := range ch.tasks {
			if t.state != taskSucceeded {
				left++
			}
		}
		if left != ch.left || left == 0 {
			return fmt.Sprintf("stage %d chunk %d: left %d, tasks say %d (a chunk left with none is dropped)", st.id, c, ch.left, left)
		}
	}
	return ""
}

// stateOf is where task idx of st is, launched or not: a dropped chunk's
// tasks succeeded, or their job ended.
func stateOf(st *stage, idx int) taskState {
	switch t := st.task(idx); {
	case t != nil:
		return t.state
	case idx < st.launched && !st.job.ended:
		return taskSucceeded
	case idx < st.freshEnd:
		return taskPending
	}
	return taskAbandoned
}

// checkInternal verifies the scheduler's own bookkeeping against itself:
// counters recomputed from task states, the free-core bitmap, executor
// slots. It returns a description of the first inconsistency, or "".
func checkInternal(s *Scheduler) string {
	for id, ex := range s.executors {
		if ex.spec.ID != id || ex.removed {
			return fmt.Sprintf("executor %s: map entry inconsistent", id)
		}
		cpus := 0
		for i, ref := range ex.running {
			if ref.copy {
				if c := ref.st.specul.copies[ref.idx]; c == nil || c.exec != ex || int(c.slot) != i {
					return fmt.Sprintf("executor %s: running[%d] = a copy of stage %d task %d, not recorded so: %+v", id, i, ref.st.id, ref.idx, c)
				}
				cpus += ref.st.spec.Request.CPUs
				continue
			}
			t := ref.st.task(int(ref.idx))
			if t == nil || t.exec != ex || int(t.slot) != i || (t.state != taskRunning && t.state != taskKilling && t.state != taskStopping) {
				return fmt.Sprintf("executor %s: running[%d] = stage %d task %d in state %d on %v slot %d", id, i, ref.st.id, ref.idx, t.state, t.exec, t.slot)
			}
			cpus += ref.st.spec.Request.CPUs
		}
		if ex.freeCores != ex.spec.Cores-cpus {
			return fmt.Sprintf("executor %s: freeCores %d, want %d", id, ex.freeCores, ex.spec.Cores-cpus)
		}
		prof := ex.profile
		if ex.slot >= len(prof.executors) || prof.executors[ex.slot] != ex {
			return fmt.Sprintf("executor %s: slot %d wrong", id, ex.slot)
		}
		bit := prof.free[ex.slot/64]&(1<<(ex.slot%64)) != 0
		if bit != (ex.freeCores > 0 && !ex.disabled) {
			return fmt.Sprintf("executor %s: free bit %v with %d free cores", id, bit, ex.freeCores)
		}
	}
	for _, prof := range s.profiles {
		if !slices.IsSortedFunc(prof.executors, func(a, b *executor) int { return strings.Compare(string(a.spec.ID), string(b.spec.ID)) }) {
			return fmt.Sprintf("profile %d: executors not sorted", prof.ID)
		}
	}
	// The retry heap is a heap, and holds exactly the tasks backing off.
	waits := map[*stage]int{}
	for i, w := range s.backoffs {
		if i > 0 && w.before(s.backoffs[(i-1)/2]) {
			return fmt.Sprintf("retry heap out of order at %d", i)
		}
		if w.st.job.ended {
			return fmt.Sprintf("stage %d task %d of an ended job backs off", w.st.id, w.idx)
		}
		waits[w.st]++
		if t := w.st.task(int(w.idx)); t == nil || t.state != taskPending {
			return fmt.Sprintf("stage %d task %d backs off, not pending: %+v", w.st.id, w.idx, t)
		}
	}
	poolRunning := map[*pool]int{}
	total := 0
	for jid, j := range s.jobs {
		running := 0
		for _, st := range j.stages {
			if s.stages[st.id] != st {
				return fmt.Sprintf("job %d stage %d missing from stages", jid, st.id)
			}
			if msg := checkChunks(st); msg != "" {
				return msg
			}
			if msg := checkLocality(st); msg != "" && !j.ended {
				return msg
			}
			if st.retryHead > 0 && st.retryHead >= len(st.retries) {
				// Drained queues rewind: the naive placement counts
				// len(retries) alone.
				return fmt.Sprintf("stage %d: retry queue drained at %d of %d, not rewound", st.id, st.retryHead, len(st.retries))
			}
			r, killing, provisional := 0, 0, 0
			for i := range st.launched {
				t := st.task(i)
				if t == nil {
					continue
				}
				switch t.state {
				case taskRunning:
					r++
					if t.exec == nil || t.exec.removed || j.ended {
						return fmt.Sprintf("stage %d task %d running on %v (job ended %v)", st.id, i, t.exec, j.ended)
					}
				case taskKilling:
					r++
					killing++
				case taskStopping:
					r++
				case taskProvisional:
					provisional++
				}
			}
			copies := st.running - st.ownRunning()
			r += copies
			if r != st.running {
				return fmt.Sprintf("stage %d: running %d, tasks say %d", st.id, st.running, r)
			}
			if !j.ended && provisional != st.provisional {
				return fmt.Sprintf("stage %d: provisional %d, tasks say %d", st.id, st.provisional, provisional)
			}
			if j.ended && st.pending() != 0 {
				return fmt.Sprintf("stage %d of an ended job: %d tasks pending", st.id, st.pending())
			}
			if want := st.spec.Tasks - st.succeeded - (st.running - copies) - st.provisional; !j.ended && st.runnable && st.pending() != want {
				return fmt.Sprintf("stage %d: pending %d, want %d", st.id, st.pending(), want)
			}
			if !j.ended && st.backingOff != waits[st] {
				return fmt.Sprintf("stage %d: %d backing off, %d in the retry heap", st.id, st.backingOff, waits[st])
			}
			running += r
			_ = killing
		}
		if running != j.running {
			return fmt.Sprintf("job %d: running %d, stages say %d", jid, j.running, running)
		}
		poolRunning[j.pool] += running
		total += running
	}
	for _, p := range s.pools {
		if p.running != poolRunning[p] {
			return fmt.Sprintf("pool %s: running %d, jobs say %d", p.cfg.Name, p.running, poolRunning[p])
		}
	}
	if s.cfg.Mode == FIFO && s.root.running != total {
		return fmt.Sprintf("root: running %d, jobs say %d", s.root.running, total)
	}
	// Every runnable stage is listed once, in order, in its pool.
	lists := []*pool{s.root}
	lists = append(lists, s.poolOrder...)
	seen := map[*stage]int{}
	for _, p := range lists {
		if !slices.IsSortedFunc(p.runnable, stageOrder) {
			return fmt.Sprintf("pool %s: runnable not sorted", p.cfg.Name)
		}
		for _, st := range p.runnable {
			seen[st]++
			if !st.runnable {
				return fmt.Sprintf("stage %d listed runnable but is not", st.id)
			}
		}
	}
	for _, st := range s.stages {
		if st.runnable && seen[st] != 1 {
			return fmt.Sprintf("stage %d runnable, listed %d times", st.id, seen[st])
		}
	}
	if msg := checkRestarting(s); msg != "" {
		return msg
	}
	return checkIndexes(s, lists)
}

// checkRestarting verifies the count of restarting gangs per profile
// that holds other stages off it: only runnable gangs restart, and each
// is counted once.
func checkRestarting(s *Scheduler) string {
	want := map[*profileState]int{}
	for _, st := range s.stages {
		if !st.gangRestarting {
			continue
		}
		if !st.isGang() || !st.runnable || st.queued() == 0 {
			return fmt.Sprintf("stage %d restarting: gang %v, runnable %v, %d queued", st.id, st.isGang(), st.runnable, st.queued())
		}
		want[st.profile]++
	}
	if !maps.Equal(want, s.restartingOn) {
		return fmt.Sprintf("restarting gangs per profile %v, stages say %v", s.restartingOn, want)
	}
	return ""
}

// checkIndexes verifies what keeps placement and Wakeup from scanning
// every stage: the fit classes' counts, the ranks (heaps, holding exactly
// the runnable pools and FAIR pools' stages, nothing left aside between
// rounds) and the stages with locality preferences.
func checkIndexes(s *Scheduler, pools []*pool) string {
	members, queued := map[fitKey]int{}, map[fitKey]int{}
	for _, st := range s.stages {
		if !st.runnable {
			if st.class != nil || st.rankIdx != 0 || s.localized[st] {
				return fmt.Sprintf("stage %d not runnable but indexed", st.id)
			}
			continue
		}
		key := st.fitKey()
		if st.class == nil || st.class != s.classes[key] {
			return fmt.Sprintf("stage %d not in its class", st.id)
		}
		if members[key]++; st.queued() > 0 {
			queued[key]++
		}
		if s.localized[st] != st.hasPreference() {
			return fmt.Sprintf("stage %d: localized %v, has preferences %v", st.id, s.localized[st], st.hasPreference())
		}
	}
	live := 0
	for key, c := range s.classes {
		if c.members != members[key] || c.queued != queued[key] {
			return fmt.Sprintf("class %+v: %d members, %d queued; stages say %d, %d", key, c.members, c.queued, members[key], queued[key])
		}
		if c.queued > 0 {
			live++
		}
	}
	if live != s.liveClasses {
		return fmt.Sprintf("%d live classes, counted %d", s.liveClasses, live)
	}
	if len(s.fair.aside) > 0 || len(s.setAside) > 0 {
		return "ranks left set aside after a round"
	}
	if msg := checkRank(&s.fair, "pools"); msg != "" {
		return msg
	}
	ranked := 0
	for _, p := range pools {
		inFair := s.cfg.Mode == FAIR && p != s.root && len(p.runnable) > 0
		if (p.rankIdx != 0) != inFair {
			return fmt.Sprintf("pool %s: ranked %v, want %v", p.cfg.Name, p.rankIdx != 0, inFair)
		}
		if inFair {
			ranked++
		}
		want := 0
		if p.cfg.Mode == FAIR {
			want = len(p.runnable)
		}
		if len(p.stages.heap) != want || len(p.stages.aside) > 0 {
			return fmt.Sprintf("pool %s: %d stages ranked (%d aside), want %d", p.cfg.Name, len(p.stages.heap), len(p.stages.aside), want)
		}
		if msg := checkRank(&p.stages, "pool "+p.cfg.Name); msg != "" {
			return msg
		}
	}
	if ranked != len(s.fair.heap) {
		return fmt.Sprintf("%d pools ranked, want %d", len(s.fair.heap), ranked)
	}
	return ""
}

// checkRank: every item knows its place, and none ranks before its parent.
func checkRank[T rankable[T]](r *rank[T], what string) string {
	for i, x := range r.heap {
		if *x.rankSlot() != i+1 {
			return fmt.Sprintf("%s: item %d thinks it is at %d", what, i, *x.rankSlot()-1)
		}
		if i > 0 && x.ranksBefore(r.heap[(i-1)/2]) {
			return fmt.Sprintf("%s: out of order at %d", what, i)
		}
	}
	return ""
}

// runsOn is the executor s runs attempt a's task on ("" when none):
// where a test's report of a comes from, as the executor running it
// would send it.
func runsOn(s *Scheduler, a AttemptID) ExecutorID {
	st := s.stages[a.Task.Stage]
	if st == nil {
		return ""
	}
	if c := st.runningCopy(a); c != nil {
		return c.exec.spec.ID
	}
	if t := st.task(a.Task.Index); t != nil && t.exec != nil {
		return t.exec.spec.ID
	}
	return ""
}

// checkLocality checks a stage's delay scheduling state against its
// queue: exactly its queued tasks are marked so, and counted by what
// they prefer.
func checkLocality(st *stage) string {
	l := st.loc
	if l == nil {
		return ""
	}
	queued := make([]bool, st.spec.Tasks)
	for i := st.launched; i < st.freshEnd; i++ {
		queued[i] = true
	}
	for _, i := range st.retries[st.retryHead:] {
		queued[i] = true
	}
	hosts, racks := 0, 0
	for i, q := range queued {
		if q != l.queued[i] {
			return fmt.Sprintf("stage %d task %d: queued %v, marked %v", st.id, i, q, l.queued[i])
		}
		if q && len(l.prefs[i].Hosts) > 0 {
			hosts++
		}
		if q && len(l.prefs[i].Racks) > 0 {
			racks++
		}
	}
	entries, live := len(l.noPref), 0
	for _, q := range l.byHost {
		entries += len(q)
	}
	for _, q := range l.byRack {
		entries += len(q)
	}
	for i, q := range l.queued {
		if q {
			live += entriesOf(l.prefs[i])
		}
	}
	if entries != l.entries || live != l.live {
		return fmt.Sprintf("stage %d: stacks hold %d entries, %d live; counted %d, %d", st.id, entries, live, l.entries, l.live)
	}
	if hosts != l.hostQueued || racks != l.rackQueued {
		return fmt.Sprintf("stage %d: %d/%d queued with hosts/racks, counted %d/%d", st.id, hosts, racks, l.hostQueued, l.rackQueued)
	}
	return ""
}
