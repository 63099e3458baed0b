package sim

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/internal/svgplot"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

// integral is a step series' area from its first point to end.
func integral(ps []svgplot.Point, end float64) float64 {
	sum := 0.0
	for i, p := range ps {
		next := end
		if i+1 < len(ps) {
			next = ps[i+1].X
		}
		sum += p.Y * (next - p.X)
	}
	return sum
}

func peak(ps []svgplot.Point) float64 {
	m := 0.0
	for _, p := range ps {
		m = max(m, p.Y)
	}
	return m
}

// The timeline follows the run's own counts: containers held reach
// PeakExecutors and add up to ExecutorSeconds, no more executors are busy
// than held, every task waits at the start (the trace's first job has 24,
// 16 of them behind their parents) and none at the end, which is the
// makespan. Recording changes nothing else.
func TestTimelineFollowsTheRunsCounts(t *testing.T) {
	for _, policy := range []dynalloc.Policy{dynalloc.PolicySpindle, dynalloc.PolicySpark} {
		opts := options(policy, true)
		plain := mustRun(t, opts)
		if plain.Timeline != nil {
			t.Fatal("a timeline recorded unasked")
		}
		opts.Timeline = true
		res := mustRun(t, opts)
		tl := res.Timeline
		if res.Timeline = nil; !reflect.DeepEqual(res, plain) {
			t.Errorf("%v: recording changed the run:\n%+v\n%+v", policy, res, plain)
		}
		if got := peak(tl.Held); got != float64(plain.PeakExecutors) {
			t.Errorf("%v: containers held peak at %v, PeakExecutors %d", policy, got, plain.PeakExecutors)
		}
		if got := integral(tl.Held, plain.MakespanS); math.Abs(got-plain.ExecutorSeconds) > 1e-3 {
			t.Errorf("%v: containers held add up to %v s, ExecutorSeconds %v", policy, got, plain.ExecutorSeconds)
		}
		for _, b := range tl.Busy {
			if held := valueAt(tl.Held, b.X); b.Y > held {
				t.Errorf("%v: %v executors busy at %vs, %v held", policy, b.Y, b.X, held)
			}
		}
		if first := valueAt(tl.Waiting, 0); first != 24 {
			t.Errorf("%v: %v tasks waiting at 0, want 24", policy, first)
		}
		for name, s := range map[string][]svgplot.Point{"held": tl.Held, "busy": tl.Busy, "waiting": tl.Waiting} {
			if last := s[len(s)-1]; last.X != plain.MakespanS {
				t.Errorf("%v: %s ends at %vs, the makespan is %v", policy, name, last.X, plain.MakespanS)
			}
		}
		if last := tl.Waiting[len(tl.Waiting)-1]; last.Y != 0 || tl.Busy[len(tl.Busy)-1].Y != 0 {
			t.Errorf("%v: tasks still waiting or running at the end: %v", policy, last)
		}
	}
}

// valueAt is a step series' value at x.
func valueAt(ps []svgplot.Point, x float64) float64 {
	v := 0.0
	for _, p := range ps {
		if p.X > x {
			break
		}
		v = p.Y
	}
	return v
}

// Tasks waiting count every pool's.
func TestTimelineCountsTasksWaitingInEveryPool(t *testing.T) {
	jobs, err := ParseTrace(strings.NewReader("submit_s,job,stage,tasks,task_s,cpus,gpus,pool\n0,a,s,8,1,1,0,p1\n0,b,s,5,1,1,0,p2\n"), "pools.csv")
	if err != nil {
		t.Fatal(err)
	}
	opts := options(dynalloc.PolicySpindle, true)
	opts.Timeline = true
	res, err := Run(jobs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := valueAt(res.Timeline.Waiting, 0); got != 13 {
		t.Errorf("%v tasks waiting at 0 in two pools of 8 and 5", got)
	}
}
