package scheduler

import "fmt"

// NumberJobsFrom makes next the id of the next job submitted. An
// ApplicationMaster's next attempt resumes its predecessor's jobs under
// their ids (a session's clients follow them by id), skipping those of
// jobs that ended. Ids only rise: one below the next is refused.
func (s *Scheduler) NumberJobsFrom(next JobID) error {
	if next < s.jobSeq {
		return fmt.Errorf("job ids from %d: ids up to %d are taken", next, s.jobSeq-1)
	}
	s.jobSeq = next
	return nil
}
