package scheduler

// JobStages lists the stage ids of an active job, in the order its spec
// gave the stages.
func (s *Scheduler) JobStages(id JobID) []StageID {
	j, ok := s.jobs[id]
	if !ok {
		return nil
	}
	ids := make([]StageID, len(j.stages))
	for i, st := range j.stages {
		ids[i] = st.id
	}
	return ids
}
