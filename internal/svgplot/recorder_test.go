package svgplot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// valueAt is a step series' value at time x: the last point's at or
// before it.
func valueAt(ps []Point, x float64) float64 {
	v := math.NaN()
	for _, p := range ps {
		if p.X > x {
			break
		}
		v = p.Y
	}
	return v
}

// A million samples of a random walk keep to the bound, in time order,
// with their highest, lowest and last values exact.
func TestRecorderKeepsExtremesAndLastWithinItsBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	r := NewRecorder(MaxPoints)
	y, lo, hi := 50.0, 50.0, 50.0
	var x float64
	for i := 0; i < 1_000_000; i++ {
		x += rng.Float64() / 10
		y = max(0, y+float64(rng.IntN(3)-1))
		lo, hi = min(lo, y), max(hi, y)
		r.Add(x, y)
	}
	ps := r.Points()
	if len(ps) > MaxPoints || len(ps) < MaxPoints/2 {
		t.Fatalf("%d points kept of a million, want at most %d and not far fewer", len(ps), MaxPoints)
	}
	gotLo, gotHi := math.Inf(1), math.Inf(-1)
	for i, p := range ps {
		if i > 0 && p.X < ps[i-1].X {
			t.Fatalf("point %d at %v before point %d at %v", i, p.X, i-1, ps[i-1].X)
		}
		gotLo, gotHi = min(gotLo, p.Y), max(gotHi, p.Y)
	}
	if gotLo != lo || gotHi != hi {
		t.Errorf("kept range %v..%v, the samples' %v..%v", gotLo, gotHi, lo, hi)
	}
	if last := ps[len(ps)-1]; last != (Point{x, y}) {
		t.Errorf("last point %v, want the last sample %v", last, Point{x, y})
	}
}

// A bucket's last value is the level the series holds until the next
// sample, however coarse the buckets became: a burst to 10 that settles
// at 7 reads 7 long after, not 10.
func TestRecorderKeepsTheLevelBetweenSamples(t *testing.T) {
	// Seven changes in a bound of 7: two buckets, the first holding the
	// burst, the second the changes at 3000.
	r := NewRecorder(7)
	for _, p := range []Point{{0, 0}, {1, 5}, {1.5, 10}, {2, 7}, {3000, 0}, {3001, 1}, {3002, 2}} {
		r.Add(p.X, p.Y)
	}
	ps := r.Points()
	if len(ps) > 7 || r.buckets == nil {
		t.Fatalf("%d points, bound 7; bucketed %v", len(ps), r.buckets != nil)
	}
	for _, c := range []struct{ x, want float64 }{{1500, 7}, {2999, 7}, {3000, 0}, {0, 0}, {3002, 2}} {
		if got := valueAt(ps, c.x); got != c.want {
			t.Errorf("value at %v = %v, want %v (points %v)", c.x, got, c.want, ps)
		}
	}
	if got := valueAt(ps, 1.75); got != 10 && got != 7 {
		t.Errorf("inside the burst's bucket: %v", got)
	}
}

// Downsample leaves a series of exactly the limit alone and brings one
// past it within the limit.
func TestDownsampleAtTheLimitAndOnePast(t *testing.T) {
	series := func(n int) []Point {
		ps := make([]Point, n)
		for i := range ps {
			ps[i] = Point{float64(i), float64(i % 7)}
		}
		return ps
	}
	at := series(MaxPoints)
	if got := Downsample(at, MaxPoints); len(got) != MaxPoints || &got[0] != &at[0] {
		t.Errorf("at the limit: %d points, or a copy; want the series itself", len(got))
	}
	if got := Downsample(series(MaxPoints+1), MaxPoints); len(got) > MaxPoints || len(got) == 0 {
		t.Errorf("one past the limit: %d points, want 1 to %d", len(got), MaxPoints)
	}
}

// Samples out of order are taken at the latest time, and ones that are
// not finite numbers are dropped, without a panic.
func TestRecorderTakesOddSamples(t *testing.T) {
	r := NewRecorder(9)
	r.Add(5, 1)
	r.Add(3, 2) // a clock stepping back
	r.Add(math.NaN(), 3)
	r.Add(6, math.Inf(1))
	r.Add(math.MaxFloat64, 4)
	ps := r.Points()
	for i := 1; i < len(ps); i++ {
		if ps[i].X < ps[i-1].X {
			t.Errorf("points out of time order: %v", ps)
		}
	}
	if len(ps) == 0 || ps[0] != (Point{5, 1}) || valueAt(ps, 5) != 2 {
		t.Errorf("points %v: want 1 then 2, both at 5", ps)
	}
	if last := ps[len(ps)-1]; last != (Point{math.MaxFloat64, 4}) {
		t.Errorf("last point %v, want the far one", last)
	}
	for _, p := range ps {
		if p.Y == 3 || math.IsInf(p.Y, 0) {
			t.Errorf("a sample that is not finite was kept: %v", ps)
		}
	}
}

// Up to the bound every change is kept as it came and repeats are not:
// a series of a few changes over a long time loses nothing, and still
// reaches its latest sample's time.
func TestRecorderKeepsEveryChangeUpToItsBound(t *testing.T) {
	r := NewRecorder(5)
	for _, p := range []Point{{0, 1}, {1, 1}, {2, 3}, {1e6, 3}, {2e6, 0}, {3e6, 2}, {4e6, 2}} {
		r.Add(p.X, p.Y)
	}
	want := []Point{{0, 1}, {2, 3}, {2e6, 0}, {3e6, 2}, {4e6, 2}}
	if got := r.Points(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("points %v, want %v", got, want)
	}
	// One change more than the bound holds: buckets, within it.
	r.Add(5e6, 1)
	if got := r.Points(); len(got) > 5 || got[len(got)-1] != (Point{5e6, 1}) {
		t.Errorf("one change past the bound: %v", got)
	}
}

// Changes at one instant keep their order in a bucket: the last one is
// the level that follows.
func TestRecorderKeepsTheOrderOfChangesAtOneTime(t *testing.T) {
	r := NewRecorder(4) // one bucket, past three changes
	for _, y := range []float64{5, 10, 7, 6} {
		r.Add(0, y)
	}
	if ps := r.Points(); r.buckets == nil || valueAt(ps, 1) != 6 {
		t.Errorf("points %v (bucketed %v): want 6 to follow", ps, r.buckets != nil)
	}
}
