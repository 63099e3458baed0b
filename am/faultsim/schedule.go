package faultsim

import (
	"math/rand/v2"
	"time"
)

// Schedule is one run: the world (its nodes, executors, journal and
// clients' jobs) and the faults that befall it. Draw makes one from a
// seed; its text (String, Parse) replays it, and may be edited to
// replay less.
type Schedule struct {
	// Seed draws everything the schedule does not say: task durations,
	// message latencies, delays.
	Seed uint64
	// Journal: the AM journals (off: a Kerberos cluster's, or
	// spindle.yarn.am.journal=false).
	Journal bool
	// OneJob: the application is spindle submit's, of one job (the
	// first client's first), which each attempt submits unless it
	// resumed it, and which ends the application; otherwise a session,
	// its clients' jobs.
	OneJob bool
	// Nodes each hold two executors of two GPUs; Executors is how many
	// the AM keeps.
	Nodes, Executors int
	// Rejoin is the executors' rejoin timeout, Adopt the AM's wait for
	// them to register again.
	Rejoin, Adopt time.Duration
	Clients       []ClientPlan
	Faults        []Fault
}

// ClientPlan is a session client's jobs, submitted one after another.
type ClientPlan struct{ Jobs []JobPlan }

// JobPlan is a job of one stage: submitted At (or once the job before
// it ended), of Tasks tasks, each run taking from half a second to 6
// seconds, or from 10 to 40 when Long; Failing are the tasks whose first
// runs fail.
type JobPlan struct {
	At      time.Duration
	Tasks   int
	Long    bool
	Failing []TaskFailing
}

// TaskFailing is a task whose first Runs runs fail (it never succeeds
// when Runs is MaxAttempts or more: its job fails).
type TaskFailing struct{ Index, Runs int }

// MaxAttempts is every task's spindle.task.maxFailures.
const MaxAttempts = 3

// FaultKind is what goes wrong.
type FaultKind string

const (
	// Crash kills the AM process At a time or, when Op is set, at the
	// Op-th store operation of its attempt Attempt, in a Phase of it.
	Crash FaultKind = "crash"
	// RMRestart restarts the RM: it forgets the application's
	// registration and asks, and learns the nodes' containers again as
	// their NodeManagers register, each up to 10s later.
	RMRestart FaultKind = "rm-restart"
	// ExecutorLoss kills an executor process (the Pick-th live one).
	ExecutorLoss FaultKind = "executor-loss"
	// NodeLoss takes a node (Node) and its containers away; a fresh
	// NodeManager comes back on it a minute later.
	NodeLoss FaultKind = "node-loss"
	// StoreOutage fails the journal store's operations (Ops: list, read,
	// write) from At to Until.
	StoreOutage FaultKind = "store-outage"
	// Cut ends a live AM's connection with an executor (the Pick-th),
	// losing what was in flight either way.
	Cut FaultKind = "cut"
)

// Phase is where in a store operation a crash falls.
type Phase string

const (
	Before Phase = "before" // the operation never happens
	Torn   Phase = "torn"   // a write leaves half a segment under its temporary name
	After  Phase = "after"  // the operation happened; the AM dies before it learns
)

// Fault is one thing going wrong.
type Fault struct {
	Kind    FaultKind
	At      time.Duration
	Attempt int
	Op      int
	Phase   Phase
	Pick    int
	Node    int
	Until   time.Duration
	Ops     []string
}

// Mix says which faults Draw draws beyond the default ones.
type Mix struct {
	// Cuts draws connection cuts between a live AM and an executor,
	// which the default mix leaves out, keeping its seeds as they were
	// drawn: the executor waits out its rejoin timeout with its tasks
	// running, since no next attempt dials it, while the AM holds them
	// until its container is known gone (am/core/cut.go), and blames
	// none of them for its exit (docs/reliability.md, "The fault
	// simulator").
	Cuts bool
}

// Draw makes seed's schedule: a world of 2 or 3 nodes, 1 to 3 clients
// with 1 or 2 jobs each, and up to 6 faults in its first 100 seconds,
// while the jobs run.
func Draw(seed uint64, mix Mix) *Schedule {
	r := rand.New(rand.NewPCG(seed, 0x5c4ed))
	s := &Schedule{Seed: seed, Journal: r.IntN(10) > 0, Nodes: 2 + r.IntN(2), Rejoin: 60 * time.Second, Adopt: 30 * time.Second}
	s.Executors = 1 + r.IntN(2*s.Nodes-1)
	if r.IntN(4) == 0 { // executors that give up sooner than the AM comes back
		s.Rejoin, s.Adopt = ms(r, 3000, 20000), ms(r, 1000, 10000)
	}
	s.OneJob = r.IntN(4) == 0
	for range 1 + r.IntN(3) {
		var c ClientPlan
		for range 1 + r.IntN(2) {
			c.Jobs = append(c.Jobs, drawJob(r))
		}
		s.Clients = append(s.Clients, c)
	}
	if s.OneJob {
		first := s.Clients[0].Jobs[0]
		s.Clients = []ClientPlan{{Jobs: []JobPlan{{Tasks: first.Tasks, Long: first.Long, Failing: first.Failing}}}}
	}
	for range r.IntN(7) {
		f := drawFault(r, s)
		if mix.Cuts && f.Kind == ExecutorLoss && r.IntN(2) == 0 {
			f.Kind = Cut
		}
		s.Faults = append(s.Faults, f)
	}
	return s
}

func drawJob(r *rand.Rand) JobPlan {
	j := JobPlan{At: ms(r, 0, 40000), Tasks: 1 + r.IntN(10), Long: r.IntN(4) == 0}
	for i := range j.Tasks {
		switch n := r.IntN(20); {
		case n == 0:
			j.Failing = append(j.Failing, TaskFailing{Index: i, Runs: MaxAttempts}) // its job fails
		case n < 3:
			j.Failing = append(j.Failing, TaskFailing{Index: i, Runs: 1 + r.IntN(MaxAttempts-1)})
		}
	}
	return j
}

func drawFault(r *rand.Rand, s *Schedule) Fault {
	at := ms(r, 0, 100000)
	switch n := r.IntN(14); {
	case n < 3:
		return Fault{Kind: Crash, At: at}
	case n < 6:
		phases := []Phase{Before, Torn, After}
		return Fault{Kind: Crash, Attempt: 1 + r.IntN(3), Op: 1 + r.IntN(30), Phase: phases[r.IntN(3)]}
	case n < 8:
		return Fault{Kind: RMRestart, At: at}
	case n < 10:
		return Fault{Kind: ExecutorLoss, At: at, Pick: r.IntN(6)}
	case n < 11:
		return Fault{Kind: NodeLoss, At: at, Node: r.IntN(s.Nodes)}
	default:
		ops := [][]string{{"list", "read", "write"}, {"write"}, {"list", "read"}}[r.IntN(3)]
		until := at + ms(r, 1000, 25000)
		if r.IntN(10) == 0 { // longer than an attempt reads for: its work starts over
			until = at + ms(r, 30000, 45000)
		}
		return Fault{Kind: StoreOutage, At: at, Until: until, Ops: ops}
	}
}

// ms is a duration from lo to hi milliseconds, whole.
func ms(r *rand.Rand, lo, hi int) time.Duration {
	return time.Duration(lo+r.IntN(hi-lo+1)) * time.Millisecond
}
