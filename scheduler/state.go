package scheduler

import "time"

// taskState is where a task is in its life.
type taskState uint8

const (
	taskPending taskState = iota
	taskRunning
	taskKilling  // asked to stop; its resources stay held until it reports
	taskStopping // stopped for its gang's restart: it runs again when it reports
	taskSucceeded
	taskAbandoned // its job ended before it could finish
	// taskProvisional: a gang's task that succeeded while others of its
	// gang's run had not yet; done once all have, run again if one fails
	// (gang.go).
	taskProvisional
)

// task is one launched task of a stage. Its running attempt, if any,
// holds cores on exec (and addresses, in exec's running list) until it
// reports. It is kept small: a stage holds one for each task launched
// until the task's chunk is dropped (chunks.go).
type task struct {
	exec     *executor
	attempts int32 // attempts launched
	// slot is its index in exec.running while it runs there; before its
	// first run, its index in its stage's retries if a restore skipped
	// it (restore.go).
	slot     int32
	state    taskState
	failures uint8 // counted failures, at most MaxAttemptsLimit
}

// taskRef names a running attempt from its executor, with the GPU
// addresses it holds there.
type taskRef struct {
	st  *stage
	idx int32
	// copy: the attempt is its task's speculative copy, or the losing
	// attempt of a speculated task (speculation.go), not the task's own.
	// Beside idx it takes no room: the struct stays 64 bytes.
	copy   bool
	addrs  []string
	accels []Assigned
}

// set fills r field by field: copying the struct whole would take the
// runtime's bulk write barrier while a collection runs, which cost
// placement a fifth of its time.
func (r *taskRef) set(st *stage, idx int32, addrs []string, accels []Assigned) {
	r.st, r.idx, r.addrs, r.accels, r.copy = st, idx, addrs, accels, false
}

// stage is a stage of an active job. Its tasks not yet launched cost
// nothing each: they are the range [launched, freshEnd) of indices,
// launched in index order; the state of those launched is kept in chunks
// (chunks.go).
type stage struct {
	id       StageID
	job      *job
	spec     StageSpec
	profile  *profileState
	parents  []*stage
	children []*stage
	chunks   []taskChunk // by index / chunkTasks, as far as launched

	runnable  bool    // every parent succeeded
	launched  int     // tasks launched at least once: the next fresh index
	freshEnd  int     // spec.Tasks; launched once the job has ended
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
	localityDeadline time.Time      // wait for preferred executors until then
	loc              *stageLocality // per-task preferences; nil for none
	blockedRound     uint64         // the placement round it found no executor in
	unschedulable    time.Time      // since when only excluded hosts could run it
	class            *fitClass      // while runnable
	rankIdx          int            // in its FAIR pool's rank (rank.go)
	// A gang stage's try at acquiring started at gangSince (zero: not
	// acquiring), and gangTries timed out; gangFailures counts its failed
	// runs; gangDemoted, a soft gang that timed out runs as an ordinary
	// stage (gang.go); provisional counts its tasks in taskProvisional;
	// gangRestarting, a run of it failed and it has not run again since,
	// nor timed out (Scheduler.restarting).
	gangSince      time.Time
	gangTries      int
	gangFailures   int
	gangDemoted    bool
	gangRestarting bool
	provisional    int
	// specul tracks its tasks' run times and copies when it speculates
	// (speculation.go); nil when it does not.
	specul *speculation
}

// pending counts the tasks waiting to run: queued, or backing off.
func (st *stage) pending() int {
	return st.queued() + st.backingOff
}

// queued counts the tasks placement may launch now.
func (st *stage) queued() int {
	return st.freshEnd - st.launched + len(st.retries) - st.retryHead
}

// popPending takes the task to launch next off its queue and returns its
// index: retries first (as Spark does), then fresh tasks in index order.
func (st *stage) popPending() int {
	if st.retryHead < len(st.retries) {
		idx := int(st.retries[st.retryHead])
		// Rewind once drained, so a queue that is filled and emptied by
		// turns reuses its memory instead of growing.
		if st.retryHead++; st.retryHead == len(st.retries) {
			st.retries, st.retryHead = st.retries[:0], 0
		}
		return idx
	}
	idx := st.launched
	st.launched++
	if idx%chunkTasks == 0 {
		st.addChunk(idx)
	}
	return idx
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
	// Under FairDRF (drf.go): what its running tasks hold, and its
	// dominant share of the session's executors per weight.
	drf   bool
	used  usage
	share float64
}

// executor is a registered executor.
type executor struct {
	spec      ExecutorSpec
	profile   *profileState
	host      *host
	freeCores int
	gpus      *addresses
	accels    accelSet
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
