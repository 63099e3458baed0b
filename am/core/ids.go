package core

import (
	"fmt"

	"github.com/spindle-yarn/spindle/scheduler"
)

// Each ApplicationMaster attempt of an application numbers what it
// makes in ranges of its own, so that no id is used twice whatever its
// journal says (present, absent on a Kerberos cluster or switched off,
// refused, or missing what the attempt before wrote last): attempt N
// (Config.AMAttempt, from 1) numbers its new jobs and their stages from
// (N−1)×IDsPerAMAttempt, and its task attempts from
// (N−1)×AttemptsPerAMAttempt. What it resumes keeps the ids it had, and
// a task adopted or launched before goes on from its own attempt
// number if that is higher. A session's client follows its job by job
// id (FollowJob): a job of a later attempt never has the id of one it
// followed. The first attempt numbers from 0, as an application that
// never restarts always did.
const (
	// IDsPerAMAttempt is the range of job ids, and of stage ids, each
	// AM attempt has: more than an attempt submits.
	IDsPerAMAttempt = 1_000_000_000
	// AttemptsPerAMAttempt is the range of a task's attempt numbers each
	// AM attempt has: ten times the attempts a task's counted failures
	// allow (scheduler.MaxAttemptsLimit), for those that end blamelessly.
	AttemptsPerAMAttempt = 1000
)

// maxAMAttempt is the last AM attempt whose ranges an int32 attempt
// number (the wire's) holds.
const maxAMAttempt = 1_000_000

// idRanges checks cfg's AM attempt and returns the first job, stage and
// task attempt numbers it takes.
func idRanges(attempt int) (scheduler.JobID, scheduler.StageID, int, error) {
	if attempt < 0 || attempt > maxAMAttempt {
		return 0, 0, 0, fmt.Errorf("ApplicationMaster attempt %d: want 1 to %d (0: the first)", attempt, maxAMAttempt)
	}
	n := max(attempt, 1) - 1
	return scheduler.JobID(n * IDsPerAMAttempt), scheduler.StageID(n * IDsPerAMAttempt), n * AttemptsPerAMAttempt, nil
}

// numberNewJobs has the scheduler number the next job submitted, and
// its stages, in this attempt's range at least: resumed jobs took their
// own ids before.
func (c *Core) numberNewJobs() {
	job, stage := c.sched.NextIDs()
	// Rising, it cannot be refused.
	_ = c.sched.NumberFrom(max(job, c.firstJob), max(stage, c.firstStage))
}
