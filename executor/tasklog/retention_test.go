package tasklog

import (
	"slices"
	"testing"
)

// A job is kept while the ended jobs number exactly MaxJobs; the one past
// it removes the oldest ended job, not the newest.
func TestRetentionKeepsMaxJobs(t *testing.T) {
	r := NewRetention(Policy{MaxJobs: 3})
	for _, job := range []int64{7, 3, 9} { // ended in this order, not by id
		if rm := r.Ended(job, 100); len(rm) != 0 {
			t.Fatalf("job %d ended, %d jobs kept: removed %v, want none", job, 3, rm)
		}
	}
	if jobs, bytes := r.Kept(); jobs != 3 || bytes != 300 {
		t.Fatalf("kept %d jobs, %d bytes; want 3, 300", jobs, bytes)
	}
	if rm := r.Ended(1, 100); !slices.Equal(rm, []int64{7}) {
		t.Fatalf("a fourth job ended: removed %v, want [7], the oldest ended", rm)
	}
	if rm := r.Ended(2, 100); !slices.Equal(rm, []int64{3}) {
		t.Fatalf("a fifth job ended: removed %v, want [3]", rm)
	}
	if jobs, _ := r.Kept(); jobs != 3 {
		t.Fatalf("kept %d jobs, want 3", jobs)
	}
}

// Ended jobs' files holding exactly MaxBytes are kept; one byte more
// removes the oldest ended jobs until they fit.
func TestRetentionKeepsMaxBytes(t *testing.T) {
	r := NewRetention(Policy{MaxBytes: 1000})
	r.Ended(1, 400)
	if rm := r.Ended(2, 600); len(rm) != 0 {
		t.Fatalf("exactly 1000 bytes: removed %v, want none", rm)
	}
	if rm := r.Ended(3, 1); !slices.Equal(rm, []int64{1}) {
		t.Fatalf("1001 bytes: removed %v, want [1]", rm)
	}
	if jobs, bytes := r.Kept(); jobs != 2 || bytes != 601 {
		t.Fatalf("kept %d jobs, %d bytes; want 2, 601", jobs, bytes)
	}
	// One big job pushes out every older one it needs to, and no more.
	if rm := r.Ended(4, 999); !slices.Equal(rm, []int64{2}) {
		t.Fatalf("a 999-byte job beside 601: removed %v, want [2] (1000 bytes left)", rm)
	}
	if rm := r.Ended(5, 1000); !slices.Equal(rm, []int64{3, 4}) {
		t.Fatalf("a 1000-byte job: removed %v, want [3 4]", rm)
	}
}

// A job whose files alone are over MaxBytes goes when it ends; a job of
// exactly MaxBytes stays.
func TestRetentionRemovesAJobOverMaxBytesAtOnce(t *testing.T) {
	r := NewRetention(Policy{MaxBytes: 1000})
	if rm := r.Ended(1, 1000); len(rm) != 0 {
		t.Fatalf("a job of exactly 1000 bytes: removed %v, want none", rm)
	}
	if rm := r.Ended(2, 1001); !slices.Equal(rm, []int64{1, 2}) {
		t.Fatalf("a job of 1001 bytes: removed %v, want [1 2]", rm)
	}
	if jobs, bytes := r.Kept(); jobs != 0 || bytes != 0 {
		t.Fatalf("kept %d jobs, %d bytes; want none", jobs, bytes)
	}
}

// Both limits hold at once: whichever is crossed removes.
func TestRetentionAppliesBothLimits(t *testing.T) {
	r := NewRetention(Policy{MaxJobs: 2, MaxBytes: 100})
	r.Ended(1, 10)
	r.Ended(2, 10)
	if rm := r.Ended(3, 10); !slices.Equal(rm, []int64{1}) {
		t.Fatalf("third job (30 bytes): removed %v, want [1] by count", rm)
	}
	if rm := r.Ended(4, 85); !slices.Equal(rm, []int64{2}) {
		t.Fatalf("fourth job (95 bytes of 2 jobs after the count): removed %v, want [2]", rm)
	}
	if rm := r.Ended(5, 10); !slices.Equal(rm, []int64{3}) {
		t.Fatalf("fifth job: removed %v, want [3] by count", rm)
	}
	if rm := r.Ended(6, 6); !slices.Equal(rm, []int64{4}) {
		t.Fatalf("sixth job: removed %v, want [4]", rm)
	}
}

// A zero policy keeps everything.
func TestRetentionWithoutLimitsKeepsAll(t *testing.T) {
	r := NewRetention(Policy{})
	for job := int64(0); job < 1000; job++ {
		if rm := r.Ended(job, 1<<40); len(rm) != 0 {
			t.Fatalf("no limits: removed %v", rm)
		}
	}
	if jobs, _ := r.Kept(); jobs != 1000 {
		t.Fatalf("kept %d jobs, want 1000", jobs)
	}
}
