package scheduler

import (
	"testing"
	"time"
)

// Jobs resumed under their ids keep them, and their stages theirs; an
// id already taken is refused, the next free one accepted.
func TestNumberFrom(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddProfile(Profile{ID: 0, Cores: 1}); err != nil {
		t.Fatal(err)
	}
	spec := JobSpec{Name: "j", Stages: []StageSpec{{Name: "s", Tasks: 1, Request: TaskRequest{CPUs: 1}}}}
	if err := s.NumberFrom(5, 9); err != nil {
		t.Fatal(err)
	}
	if id, err := s.SubmitJob(time.Time{}, spec); err != nil || id != 5 || s.JobStages(5)[0] != 9 {
		t.Fatalf("SubmitJob = %d, %v, stages %v; want job 5 with stage 9", id, err, s.JobStages(id))
	}
	for _, taken := range [][2]int{{5, 10}, {6, 9}} {
		if err := s.NumberFrom(JobID(taken[0]), StageID(taken[1])); err == nil {
			t.Errorf("ids from job %d stage %d after job 5 stage 9: accepted", taken[0], taken[1])
		}
	}
	if err := s.NumberFrom(6, 10); err != nil {
		t.Errorf("ids from job 6 stage 10 after job 5 stage 9: %v", err)
	}
}
