package tasklog

import "testing"

func TestNameSaysJobStageTaskAttempt(t *testing.T) {
	if got := Name(12, 1, 0, 3); got != "job12-stage1-task0-attempt3" {
		t.Fatalf("Name(12, 1, 0, 3) = %q", got)
	}
}

// JobOf reads back the job of every file Name names, and of nothing else.
func TestJobOfReadsNamesBack(t *testing.T) {
	for _, job := range []int64{0, 7, 12, 1 << 40} {
		for _, suffix := range []string{Stdout, Stderr, Resources, Stdout + ".1"} {
			f := Name(job, 2, 5, 1) + suffix
			if got, ok := JobOf(f); !ok || got != job {
				t.Errorf("JobOf(%q) = %d, %v; want %d", f, got, ok, job)
			}
		}
	}
	for _, f := range []string{"executor.log", "executor.log.1", "job-stage0-task0-attempt0.stdout", "job1", "job1-", "job1-task0",
		"jobx-stage0", "job+1-stage0", "job-1-stage0", "job01-stage0-task0-attempt0.stdout", "stage0-task0-attempt0.stdout",
		"job99999999999999999999-stage0"} {
		if job, ok := JobOf(f); ok {
			t.Errorf("JobOf(%q) = %d, want no job", f, job)
		}
	}
}
