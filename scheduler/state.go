package scheduler

import "time"

// taskState is where a task is in its life.
type taskState uint8

const (
	taskPending taskState = iota
	taskRunning
	taskKilling // asked to stop; its resources stay held until it reports
	taskSucceeded
	taskAbandoned // its job ended before it could finish
)

// task is one task of a stage. Its running attempt, if any, holds cores and
// addresses on exec until it reports.
type task struct {
	state    taskState
	attempts int // attempts launched
	failures int // counted failures
	exec     *executor
	addrs    []string
	slot     int // index in exec.running while it runs there
	lastFail string
}

// taskRef names a task from its executor.
type taskRef struct {
	st  *stage
	idx int32
}

// stage is a stage of an active job.
type stage struct {
	id       StageID
	job      *job
	spec     StageSpec
	profile  *profileState
	parents  []*stage
	children []*stage
	tasks    []task

	runnable  bool    // every parent succeeded
	fresh     []int32 // pending task indices never launched, in order
	freshHead int
	retries   []int32 // pending task indices to run again, first come first
	retryHead int
	running   int
	succeeded int
	// backingOff counts the pending tasks in neither queue: they failed
	// and wait out their backoff in the scheduler's retry heap.
	backingOff int

	maxFailures      int
	preferredHosts   map[string]bool
	preferredExecs   map[ExecutorID]bool
	localityDeadline time.Time // wait for preferred executors until then
	blockedRound     uint64    // the placement round it found no executor in
	unschedulable    time.Time // since when only excluded hosts could run it
	class            *fitClass // while runnable
	rankIdx          int       // in its FAIR pool's rank (rank.go)
}

// pending counts the tasks waiting to run: queued, or backing off.
func (st *stage) pending() int {
	return st.queued() + st.backingOff
}

// queued counts the tasks placement may launch now.
func (st *stage) queued() int {
	return len(st.fresh) - st.freshHead + len(st.retries) - st.retryHead
}

// nextPending is the task to launch next: retries first (as Spark does),
// then fresh tasks in index order.
func (st *stage) nextPending() int {
	if st.retryHead < len(st.retries) {
		return int(st.retries[st.retryHead])
	}
	return int(st.fresh[st.freshHead])
}

func (st *stage) popPending() {
	if st.retryHead < len(st.retries) {
		// Rewind once drained, so a queue that is filled and emptied by
		// turns reuses its memory instead of growing.
		if st.retryHead++; st.retryHead == len(st.retries) {
			st.retries, st.retryHead = st.retries[:0], 0
		}
		return
	}
	st.freshHead++
}

// job is an active job.
type job struct {
	id             JobID
	name           string
	pool           *pool
	stages         []*stage
	done           int // stages succeeded
	running        int
	failedAttempts int
	ended          bool // failed or cancelled; kept until its killed attempts report
	killing        int
}

// pool groups jobs for FAIR scheduling.
type pool struct {
	cfg PoolConfig
	// defined: the configuration names it (Config.Pools). One made for a
	// job's pool name is forgotten once no job is left in it, but for
	// DefaultPool, which Spark always has.
	defined  bool
	jobs     int // active jobs, ended ones awaiting their kills included
	running  int
	runnable []*stage // runnable stages of its jobs, by (job, stage id)
	next     int      // FIFO: first stage not yet exhausted in round nextOf
	nextOf   uint64
	stages   rank[*stage] // FAIR: its runnable stages
	rankIdx  int          // in the scheduler's rank of pools, under FAIR
}

// executor is a registered executor.
type executor struct {
	spec      ExecutorSpec
	profile   *profileState
	host      *host
	freeCores int
	gpus      *addresses
	running   []taskRef // attempts running (or being killed) here
	idleSince time.Time
	slot      int // index in profile.executors
	removed   bool
	disabled  bool // takes no new tasks (DisableExecutor)
}

// profileState holds a profile and its executors, sorted by id, with a
// bitmap of those with a free core: placement walks it round robin.
type profileState struct {
	Profile
	executors []*executor
	free      []uint64
	cursor    int
}

// host tracks task failures on one host for exclusion.
type host struct {
	name          string
	failures      []time.Time
	excludedUntil time.Time
}

func (h *host) excluded(now time.Time) bool { return now.Before(h.excludedUntil) }
