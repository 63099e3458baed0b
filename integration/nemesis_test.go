package integration

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// A session survives a nemesis: while several clients submit and follow
// jobs of many short one-GPU tasks, faults come at random moments from a
// seeded schedule: the AM killed (SIGKILL), the AM's container stopped
// as a NodeManager stops one (SIGTERM, then SIGKILL), the RM restarted
// (work-preserving), and the NodeManager not running the AM stopped for
// a few seconds and started again. Each fault is recovered from (the
// RM's record shows the session RUNNING in the attempt it should be in,
// and tasks placed after the fault have succeeded) before the next one
// comes, and AM faults come further apart than the session's failures
// validity interval: docs/reliability.md, "What is not survived", puts
// faults closer together out of scope. Checked from the tasks' own
// records and the RM's, not the AM's log: every client's job SUCCEEDED
// with each of its tasks' work done, no task that succeeded ran again
// (but for a success in the moment before an AM or its executor died,
// which docs/reliability.md allows), never two runs of a task at once,
// and the session in attempt 1 + the AM faults.
//
// NEMESIS_TIME (default 2m) is how long faults keep coming;
// NEMESIS_SEED replays a run's schedule (the log prints it): the same
// faults in the same order, after the same pauses. `make nemesis` runs
// it for longer (docs/reliability.md has its figures).
func TestNemesisSessionSurvivesFaultsAtRandom(t *testing.T) {
	c := testcluster.GetWith(t, nemesisCluster)
	if c.NodeManagers != 2 || c.GPUsPerNode != 4 {
		t.Skipf("a cluster of %d NodeManagers x %d GPUs; the nemesis takes the default 2 x 4", c.NodeManagers, c.GPUsPerNode)
	}
	span, seed := nemesisTime(t), nemesisSeed(t)
	t.Logf("nemesis: seed %d for %v (replay: NEMESIS_SEED=%d NEMESIS_TIME=%v)", seed, span, seed, span)
	u := newSessionUser(t, "HADOOP_CONF_DIR="+c.ConfDir)
	// Two attempts allowed by the mini cluster's yarn.resourcemanager.
	// am.max-attempts (YARN's default), failures counting for
	// nemesisValidity: AM faults spaced past it are survived any number of
	// times. FAIR between the clients' pools: their jobs run side by side.
	id := u.startSession("--master", "yarn", "--conf", "spindle.executor.memory=512m", "--conf", "spindle.executor.cores=2",
		"--conf", "spindle.executor.resource.gpu.amount=2", "--conf", "spindle.executor.instances=3",
		"--conf", "spindle.scheduler.mode=FAIR",
		"--conf", fmt.Sprintf("spindle.yarn.am.attemptFailuresValidityInterval=%v", nemesisValidity))
	n := &nemesis{t: t, c: c, session: id, rm: applicationClient(t, c), rng: rand.New(rand.NewPCG(seed, seed^0x5eed))}
	cl := &nemesisClients{t: t, u: u, session: id, stop: make(chan struct{})}
	for i := range nemesisClientCount {
		cl.wg.Add(1)
		go cl.follow(i)
	}
	t.Cleanup(cl.end)
	n.run(span, cl)
	cl.end()
	waitClients(t, &cl.wg, 5*time.Minute)
	n.check(cl.jobs)
}

const (
	nemesisClientCount = 3
	nemesisTasks       = 24               // a job's tasks
	nemesisTaskSecs    = 2.0              // each holds one GPU this long
	nemesisValidity    = 15 * time.Second // spindle.yarn.am.attemptFailuresValidityInterval
	// nemesisPause bounds the random pause between one fault's recovery
	// and the next fault.
	nemesisPause = 6 * time.Second
	// successWindow is how long before an AM or an executor died a task's
	// success may have been unknown to the journal (written at most 250ms
	// after the AM hears it; the report takes its own time on a loaded
	// machine), so that the task runs again: docs/reliability.md, "The
	// last moment's successes".
	successWindow = time.Second
)

// nemesisCluster is the nemesis's own cluster: it restarts the RM and
// replaces NodeManagers, and runs beside the faults cluster's tests.
var nemesisCluster = testcluster.Config{Apart: "nemesis"}

// nemesisTime is NEMESIS_TIME, or 2 minutes.
func nemesisTime(t *testing.T) time.Duration {
	s := os.Getenv("NEMESIS_TIME")
	if s == "" {
		return 2 * time.Minute
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatalf("NEMESIS_TIME=%s: %v", s, err)
	}
	return d
}

// nemesisSeed is NEMESIS_SEED, or one from the clock.
func nemesisSeed(t *testing.T) uint64 {
	s := os.Getenv("NEMESIS_SEED")
	if s == "" {
		return uint64(time.Now().UnixNano())
	}
	seed, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("NEMESIS_SEED=%s: %v", s, err)
	}
	return seed
}

// faultKind is one of the nemesis's faults.
type faultKind string

const (
	amSIGKILL faultKind = "am-sigkill"
	amStopped faultKind = "am-nodemanager-stop" // SIGTERM, SIGKILL 250ms later
	rmRestart faultKind = "rm-restart"
	nmStopped faultKind = "nm-stop" // the NodeManager not running the AM
)

var faultKinds = []faultKind{amSIGKILL, amStopped, rmRestart, nmStopped}

// endsAttempt says whether the fault ends the AM's attempt.
func (k faultKind) endsAttempt() bool { return k == amSIGKILL || k == amStopped }

// fault is one fault the nemesis brought: from at until done (the
// controls returned, or the signals were sent), what it killed gone by
// killed (an NM's stop returned; for an AM, done), recovered from by
// recovered.
type fault struct {
	kind                        faultKind
	at, killed, done, recovered time.Time
	detail                      string
}

// nemesis brings faults on a session's cluster.
type nemesis struct {
	t       *testing.T
	c       *testcluster.Cluster
	session string
	rm      *yarn.ApplicationClient
	rng     *rand.Rand
	faults  []fault
}

// run brings faults until span has passed, each after a random pause
// once the one before was recovered from.
func (n *nemesis) run(span time.Duration, cl *nemesisClients) {
	t := n.t
	start := time.Now()
	n.recover(cl, fault{kind: "the start", at: start, done: start})
	for time.Since(start) < span {
		kind := faultKinds[n.rng.IntN(len(faultKinds))]
		pause := time.Duration(n.rng.Int64N(int64(nemesisPause)))
		hold := time.Second + time.Duration(n.rng.Int64N(int64(4*time.Second))) // an NM's time stopped
		// The random moment, not a wait for something.
		time.Sleep(pause)
		if kind.endsAttempt() {
			n.spaceAMFault()
		}
		f := n.bring(kind, hold)
		f.recovered = n.recover(cl, f)
		n.faults = append(n.faults, f)
		t.Logf("nemesis: fault %d at +%.1fs, %s%s, after a %.1fs pause: done in %.1fs, recovered %.1fs after it began",
			len(n.faults), f.at.Sub(start).Seconds(), f.kind, f.detail, pause.Seconds(), f.done.Sub(f.at).Seconds(), f.recovered.Sub(f.at).Seconds())
	}
}

// spaceAMFault waits until the last AM fault is past the failures
// validity interval, and the RM's record of it (a heartbeat or so
// after) with it: a second AM fault within it would end the session,
// which docs/reliability.md says it does.
func (n *nemesis) spaceAMFault() {
	for i := len(n.faults) - 1; i >= 0; i-- {
		if n.faults[i].kind.endsAttempt() {
			if d := time.Until(n.faults[i].done.Add(nemesisValidity + 5*time.Second)); d > 0 {
				time.Sleep(d)
			}
			return
		}
	}
}

// bring brings one fault of kind on, an NM stopped for hold.
func (n *nemesis) bring(kind faultKind, hold time.Duration) fault {
	t := n.t
	f := fault{kind: kind, at: time.Now()}
	switch kind {
	case amSIGKILL:
		syscall.Kill(amProcess(t, n.session), syscall.SIGKILL)
	case amStopped:
		stopAMContainer(t, n.session)
	case rmRestart:
		n.c.RestartRM(t)
	case nmStopped:
		slot := 1 - nodeManagerOf(t, envValue(environ(amProcess(t, n.session)), "LOG_DIRS"))
		f.at = time.Now()
		restored := false
		t.Cleanup(func() {
			if !restored {
				n.c.StartNM(t, slot)
			}
		})
		// What ran there is gone by when its last process is: a run it
		// cut short with no end on record lasted until then.
		gone := watchGone(t, processesOn(n.session, slot), time.Minute)
		n.c.StopNM(t, slot)
		f.killed = gone()
		time.Sleep(hold) // the bounded time it stays stopped
		n.c.StartNM(t, slot)
		restored = true
		f.detail = fmt.Sprintf(" (NodeManager %d, %.1fs stopped)", slot, hold.Seconds())
	}
	f.done = time.Now()
	if f.killed.IsZero() {
		f.killed = f.done
	}
	return f
}

// recover waits until the session is recovered from f: the RM has it
// RUNNING (after an RM restart, once its AM registered again) in attempt
// 1 + the AM faults so far, and two tasks placed after f have succeeded;
// it says when.
func (n *nemesis) recover(cl *nemesisClients, f fault) time.Time {
	t := n.t
	want := int32(1)
	for _, g := range append(n.faults, f) {
		if g.kind.endsAttempt() {
			want++
		}
	}
	waitFor(t, 3*time.Minute, fmt.Sprintf("the session to recover from %s (attempt %d RUNNING, tasks placed after it succeeding)", f.kind, want), func() bool {
		if app, err := rmApp(t, n.c, n.session); err != nil || app.State != "RUNNING" || currentAttempt(t, n.rm, n.session) != want {
			return false
		}
		ok := 0
		for _, j := range cl.snapshot() {
			for _, r := range readRunsIfAny(t, j.dir) {
				if r.How == "ok" && r.Start.After(f.done) {
					ok++
				}
			}
		}
		return ok >= 2
	})
	return time.Now()
}

// nemesisJob is one job a client submitted and followed.
type nemesisJob struct {
	name, dir string
	cmd       *exec.Cmd
	out       *syncBuffer
	err       error // how the client ended
}

// nemesisClients submit jobs to a session, each in a pool of its own,
// until stop is closed.
type nemesisClients struct {
	t       *testing.T
	u       *sessionUser
	session string
	stop    chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
	mu      sync.Mutex
	jobs    []*nemesisJob
}

// follow is client i: it submits a job, follows it to its end, and
// submits the next, until stop.
func (cl *nemesisClients) follow(i int) {
	defer cl.wg.Done()
	for k := 0; ; k++ {
		select {
		case <-cl.stop:
			return
		default:
		}
		j := &nemesisJob{name: fmt.Sprintf("client%d-job%d", i, k), dir: cl.t.TempDir()}
		spec := recordingSpec(cl.t, j.dir, j.name, nemesisTasks, nemesisTaskSecs)
		j.cmd, j.out = cl.u.start("submit", "--session", cl.session, "--pool", fmt.Sprintf("pool%d", i), spec)
		cl.mu.Lock()
		cl.jobs = append(cl.jobs, j)
		cl.mu.Unlock()
		err := j.cmd.Wait()
		cl.mu.Lock()
		j.err = err
		cl.mu.Unlock()
	}
}

// end has the clients submit no more jobs.
func (cl *nemesisClients) end() { cl.once.Do(func() { close(cl.stop) }) }

// snapshot is the jobs submitted so far.
func (cl *nemesisClients) snapshot() []*nemesisJob {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return slices.Clone(cl.jobs)
}

// waitClients waits for the clients to follow their last jobs to their
// ends.
func waitClients(t *testing.T, wg *sync.WaitGroup, within time.Duration) {
	t.Helper()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(within):
		t.Fatalf("the clients still follow their jobs %v after the nemesis ended", within)
	}
}

// check holds the record to what the session promises, and logs the
// figures of docs/reliability.md.
func (n *nemesis) check(jobs []*nemesisJob) {
	t := n.t
	now := time.Now()
	var all []taskRun
	excused, lost := 0, 0.0
	cut := map[faultKind]int{}
	for _, j := range jobs {
		if j.err != nil || !strings.Contains(j.out.String(), "job "+j.name+" SUCCEEDED") {
			t.Errorf("%s: the client ended %v; want its job SUCCEEDED\n%s", j.name, j.err, j.out.String())
		}
		runs := n.bounded(readRunsIfAny(t, j.dir), now)
		if missing := finished(runs, nemesisTasks); len(missing) > 0 {
			t.Errorf("%s: tasks %v never succeeded", j.name, missing)
		}
		for _, twice := range twiceAtOnce(runs, now) {
			t.Errorf("%s: ran twice at once: %s", j.name, twice)
		}
		again, ok := n.ranAgain(runs)
		for _, a := range again {
			t.Errorf("%s: a task that had succeeded ran again: %s", j.name, a)
		}
		excused += ok
		for _, r := range runs {
			if r.How != "ok" {
				lost += r.End.Sub(r.Start).Seconds()
				cut[n.cutBy(r)]++
			}
		}
		all = append(all, runs...)
	}
	attempts := int32(1)
	kinds := map[faultKind]int{}
	for _, f := range n.faults {
		kinds[f.kind]++
		if f.kind.endsAttempt() {
			attempts++
		}
		t.Logf("nemesis: %s at %s: next task start %.1fs after it, recovered %.1fs after it", f.kind, f.at.Format("15:04:05.000"),
			nextStart(all, f.at).Seconds(), f.recovered.Sub(f.at).Seconds())
	}
	if got := currentAttempt(t, n.rm, n.session); got != attempts {
		t.Errorf("the RM has the session in attempt %d; want %d, one an AM fault", got, attempts)
	}
	ran := len(jobs)
	t.Logf("nemesis figures: %d faults survived (%d %s, %d %s, %d %s, %d %s); %d jobs SUCCEEDED, %d tasks, %d runs beyond one per task "+
		"(%d of them succeeded tasks run again, each within %v before its AM or NodeManager died); runs cut short: %d as a NodeManager stopped, %d otherwise; "+
		"%.1f GPU-s of work lost; the session in attempt %d",
		len(n.faults), kinds[amSIGKILL], amSIGKILL, kinds[amStopped], amStopped, kinds[rmRestart], rmRestart, kinds[nmStopped], nmStopped,
		ran, ran*nemesisTasks, len(all)-ran*nemesisTasks, excused, successWindow, cut[nmStopped], cut[""], lost, attempts)
}

// bounded gives each run with no end on record (killed hard, with its
// NodeManager) the moment the processes on the first NodeManager
// stopped after it started were gone; or until.
func (n *nemesis) bounded(runs []taskRun, until time.Time) []taskRun {
	out := slices.Clone(runs)
	for i, r := range out {
		if !r.End.IsZero() {
			continue
		}
		out[i].End = until
		for _, f := range n.faults {
			if f.kind == nmStopped && f.killed.After(r.Start) {
				out[i].End = f.killed
				break
			}
		}
	}
	return out
}

// ranAgain lists the runs that started after a run of the same task had
// succeeded, but for those whose success came within successWindow
// before an AM or a NodeManager with executors died (excused):
// docs/reliability.md, "The last moment's successes".
func (n *nemesis) ranAgain(runs []taskRun) (again []string, excused int) {
	for i, a := range runs {
		if a.How != "ok" {
			continue
		}
		for _, b := range runs[i+1:] {
			if b.Task != a.Task || !b.Start.After(a.End) {
				continue
			}
			if n.lastMoment(a.End) {
				excused++
			} else {
				again = append(again, a.String()+", then "+b.String())
			}
		}
	}
	return again, excused
}

// lastMoment says whether a success at end came in the moment before an
// AM or executors died: within successWindow before a fault that ends an
// attempt or stops a NodeManager, or while it did.
func (n *nemesis) lastMoment(end time.Time) bool {
	for _, f := range n.faults {
		if (f.kind.endsAttempt() || f.kind == nmStopped) && !end.Before(f.at.Add(-successWindow)) && !end.After(f.killed) {
			return true
		}
	}
	return false
}

// cutBy is nmStopped for a run cut short as a NodeManager stopped (its
// end, on record or bounded, while it did), "" for any other.
func (n *nemesis) cutBy(r taskRun) faultKind {
	for _, f := range n.faults {
		if f.kind == nmStopped && !r.End.Before(f.at) && !r.End.After(f.killed) {
			return nmStopped
		}
	}
	return ""
}

// nextStart is the time from at to the first run's start after it.
func nextStart(runs []taskRun, at time.Time) time.Duration {
	next := time.Duration(-1)
	for _, r := range runs {
		if d := r.Start.Sub(at); d >= 0 && (next < 0 || d < next) {
			next = d
		}
	}
	return next
}
