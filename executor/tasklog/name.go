package tasklog

import (
	"fmt"
	"strconv"
	"strings"
)

// The suffixes of an attempt's files. While a task runs, an output file
// over spindle.task.log.maxBytes rolls over to NAME.1 (executor/contain),
// so a running attempt may have that one too. Preempted is written only
// when the attempt is told to checkpoint and stop
// (taskenv.PreemptedFile).
const (
	Stdout    = ".stdout"
	Stderr    = ".stderr"
	Resources = ".resources.json"
	Preempted = ".preempted"
)

// Name names a task attempt's files (before their suffix) and the attempt
// in the executor's log: job<J>-stage<S>-task<I>-attempt<A>, with job the
// job's id in its application (what `spindle jobs` lists and a submit
// prints), stage the stage's place among the job's stages in its spec
// (from 0, so that any stage name is safe in a file name), task the
// task's index and attempt its attempt, both from 0 (SPINDLE_TASK_INDEX,
// SPINDLE_ATTEMPT; an ApplicationMaster's next attempt numbers jobs and
// attempts from ranges of its own, so no two attempts share a name). A
// job's files all start with JobPrefix(job).
func Name(job int64, stage, task, attempt int) string {
	return fmt.Sprintf("%sstage%d-task%d-attempt%d", JobPrefix(job), stage, task, attempt)
}

// JobPrefix is how the names of job's files begin: "job12-".
func JobPrefix(job int64) string { return "job" + strconv.FormatInt(job, 10) + "-" }

// JobOf is the job a file of an attempt belongs to, from its name; ok is
// false for a file that Name did not name (an executor's own log, a
// file a task left).
func JobOf(file string) (job int64, ok bool) {
	rest, found := strings.CutPrefix(file, "job")
	if !found {
		return 0, false
	}
	digits, rest, found := strings.Cut(rest, "-")
	if !found || !strings.HasPrefix(rest, "stage") {
		return 0, false
	}
	// Only the digits Name writes: no sign, no leading zero.
	job, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || job < 0 || strconv.FormatInt(job, 10) != digits {
		return 0, false
	}
	return job, true
}
