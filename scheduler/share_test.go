package scheduler

import (
	"math"
	"strings"
	"testing"
)

func TestParseGPURequest(t *testing.T) {
	for _, tc := range []struct {
		amount   float64
		whole    int
		fraction Share
	}{
		{1, 1, 0},
		{2, 2, 0},
		{8, 8, 0},
		{0.5, 0, One / 2},
		{0.25, 0, One / 4},
		{1.0 / 3, 0, One / 3},
		{1.0 / 7, 0, One / 7},
		{1.0 / 16, 0, One / 16},
		{0.3, 0, One * 3 / 10},
		{0.123456, 0, One / 1_000_000 * 123456},
		{0.99999999999999999, 1, 0}, // is 1.0 as a float
	} {
		g, err := ParseGPURequest("gpus", tc.amount)
		if err != nil {
			t.Errorf("%v: %v", tc.amount, err)
			continue
		}
		if g.Whole() != tc.whole || g.Fraction() != tc.fraction {
			t.Errorf("%v: whole %d fraction %d, want %d %d", tc.amount, g.Whole(), g.Fraction(), tc.whole, tc.fraction)
		}
		if g.IsZero() {
			t.Errorf("%v: zero request", tc.amount)
		}
	}
	if !(GPURequest{}).IsZero() || (GPURequest{}).String() != "0" {
		t.Error("the zero GPURequest should ask for nothing")
	}
}

func TestParseGPURequestRejects(t *testing.T) {
	for _, tc := range []struct {
		amount float64
		want   string
	}{
		{0, "0"},
		{-1, "-1"},
		{-0.5, "-0.5"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "+Inf"},
		{math.Inf(-1), "-Inf"},
		{1.5, "1.5"},
		{2.25, "2.25"},
		{1e-30, "1e-30"},
		{1e12, "1e+12"},
	} {
		_, err := ParseGPURequest("stage shard: gpus", tc.amount)
		wantErr(t, err, "stage shard: gpus", tc.want)
	}
}

// Fixed point: thirds fill an address exactly, 0.3 fits three times, and
// the sums never drift.
func TestShareArithmetic(t *testing.T) {
	third, tenth, three := gpu(t, 1.0/3), gpu(t, 0.1), gpu(t, 0.3)
	if 3*third.Fraction() != One {
		t.Fatalf("3 × 1/3 = %d, want One = %d", 3*third.Fraction(), One)
	}
	if 3*three.Fraction()+tenth.Fraction() != One {
		t.Fatalf("3 × 0.3 + 0.1 = %d, want One", 3*three.Fraction()+tenth.Fraction())
	}
	if 10*tenth.Fraction() != One {
		t.Fatal("10 × 0.1 is not One")
	}
	for n := int64(1); n <= 16; n++ {
		g := gpu(t, 1/float64(n))
		if Share(n)*g.Fraction() != One && !(n == 1 && g.Whole() == 1) {
			t.Errorf("%d × 1/%d = %d, want One", n, n, Share(n)*g.Fraction())
		}
	}
}

func TestTasksPerExecutor(t *testing.T) {
	p := Profile{Cores: 8, GPUs: 2}
	for _, tc := range []struct {
		cpus   int
		amount float64 // 0: no GPU
		want   int
	}{
		{1, 0, 8},
		{2, 0, 4},
		{3, 0, 2},
		{8, 0, 1},
		{1, 1, 2},
		{1, 2, 1},
		{1, 0.5, 4},
		{1, 1.0 / 3, 6},
		{1, 0.3, 6},  // three per address
		{1, 0.4, 4},  // two per address
		{1, 0.25, 8}, // cores and GPUs agree
		{1, 0.125, 8},
		{2, 0.25, 4}, // cores bound
		{3, 0.5, 2},
		{1, 0.6, 2},
	} {
		r := TaskRequest{CPUs: tc.cpus}
		if tc.amount > 0 {
			r.GPU = gpu(t, tc.amount)
		}
		if got := p.TasksPerExecutor(r); got != tc.want {
			t.Errorf("cpus %d gpus %v: %d tasks per executor, want %d", tc.cpus, tc.amount, got, tc.want)
		}
	}
	if got := (Profile{Cores: 4}).TasksPerExecutor(TaskRequest{CPUs: 1}); got != 4 {
		t.Errorf("CPU-only profile: %d, want 4", got)
	}
}

// Requests a profile cannot run are rejected at submission, naming the
// stage, the field and the value.
func TestSubmitRejectsImpossibleRequests(t *testing.T) {
	h := newHarness(t, Config{}, Profile{ID: 0, Cores: 4, GPUs: 2}, Profile{ID: 1, Cores: 2})
	for _, tc := range []struct {
		prof ProfileID
		req  TaskRequest
		want []string
	}{
		{0, TaskRequest{CPUs: 0}, []string{`stage "s"`, "cpus 0"}},
		{0, TaskRequest{CPUs: -2}, []string{"cpus -2"}},
		{0, TaskRequest{CPUs: 5}, []string{"cpus 5", "4 cores"}},
		{0, TaskRequest{CPUs: 1, GPU: WholeGPUs(3)}, []string{"gpus 3", "2 GPUs"}},
		{0, TaskRequest{CPUs: 1, GPU: WholeGPUs(-1)}, []string{"gpus -1"}},
		{1, TaskRequest{CPUs: 1, GPU: gpu(t, 0.5)}, []string{"gpus 0.5", "0 GPUs"}},
		{1, TaskRequest{CPUs: 1, GPU: WholeGPUs(1)}, []string{"gpus 1", "0 GPUs"}},
	} {
		_, err := h.s.SubmitJob(h.now, JobSpec{Name: "j", Stages: []StageSpec{{Name: "s", Tasks: 1, Profile: tc.prof, Request: tc.req}}})
		wantErr(t, err, tc.want...)
		if !strings.Contains(err.Error(), `job "j"`) {
			t.Errorf("error %q does not name the job", err)
		}
	}
	if len(h.s.jobs) != 0 {
		t.Fatalf("%d jobs queued after rejected submissions", len(h.s.jobs))
	}
}

func TestProfileValidation(t *testing.T) {
	s, _ := New(Config{})
	wantErr(t, s.AddProfile(Profile{ID: 1, Cores: 0}), "profile 1", "cores 0")
	wantErr(t, s.AddProfile(Profile{ID: 1, Cores: 1, GPUs: -1}), "gpus -1")
	wantErr(t, s.AddProfile(Profile{ID: 1, Cores: 1, MemoryMB: -1}), "memory -1")
	if err := s.AddProfile(Profile{ID: 1, Cores: 2}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddProfile(Profile{ID: 1, Cores: 2}); err != nil {
		t.Fatalf("registering the same profile again: %v", err)
	}
	wantErr(t, s.AddProfile(Profile{ID: 1, Cores: 3}), "profile 1 registered")
}
