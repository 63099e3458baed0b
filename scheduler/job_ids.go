package scheduler

import "fmt"

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
