package scheduler

import (
	"testing"
	"time"
)

// Jobs resumed under their ids keep them; an id already taken is
// refused, the next free one accepted.
func TestNumberJobsFrom(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddProfile(Profile{ID: 0, Cores: 1}); err != nil {
		t.Fatal(err)
	}
	spec := JobSpec{Name: "j", Stages: []StageSpec{{Name: "s", Tasks: 1, Request: TaskRequest{CPUs: 1}}}}
	if err := s.NumberJobsFrom(5); err != nil {
		t.Fatal(err)
	}
	if id, err := s.SubmitJob(time.Time{}, spec); err != nil || id != 5 {
		t.Fatalf("SubmitJob = %d, %v; want job 5", id, err)
	}
	if err := s.NumberJobsFrom(5); err == nil {
		t.Error("job ids from 5 after job 5: accepted")
	}
	if err := s.NumberJobsFrom(6); err != nil {
		t.Errorf("job ids from 6 after job 5: %v", err)
	}
}
