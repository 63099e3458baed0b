package scheduler

import (
	"fmt"
	"math"
)

// NumberFrom makes job the id of the next job submitted, and stage the
// id of its first stage. An ApplicationMaster's next attempt resumes its
// predecessor's jobs under their ids (a session's clients follow them by
// job id; the executors it adopts run and report attempts by stage id),
// skipping those of jobs that ended. Ids only rise: one below the next
// is refused, and nothing changes.
func (s *Scheduler) NumberFrom(job JobID, stage StageID) error {
	if job < s.jobSeq || stage < s.stageSeq {
		return fmt.Errorf("job ids from %d and stage ids from %d: the next free are %d and %d", job, stage, s.jobSeq, s.stageSeq)
	}
	s.jobSeq, s.stageSeq = job, stage
	return nil
}

// NextIDs are the ids the next job submitted and its first stage take.
func (s *Scheduler) NextIDs() (JobID, StageID) { return s.jobSeq, s.stageSeq }

// NumberAttemptsFrom numbers each task's attempts placed from now on
// from first at least: a task never launched gets attempt first, one
// adopted (or launched) before goes on from its last attempt's number
// if that is higher. An ApplicationMaster attempt numbers its task
// attempts in a range of its own (am/core's ids.go), so that no attempt
// of a task shares its number with one an earlier AM attempt ran, its
// files' names and SPINDLE_ATTEMPT included. first must leave room
// below the largest number an attempt can have.
func (s *Scheduler) NumberAttemptsFrom(first int) error {
	if first < 0 || first > math.MaxInt32/2 {
		return fmt.Errorf("task attempts numbered from %d: want 0 to %d", first, math.MaxInt32/2)
	}
	s.firstAttempt = first
	return nil
}
