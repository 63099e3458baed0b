package svgplot

import (
	"math"
	"slices"
)

// Point is one sample of a step series: from X on, the value is Y, until
// the next point.
type Point struct{ X, Y float64 }

// MaxPoints bounds the points a chart draws per series: a few thousand
// are more than a page's width in pixels, and keep a file small.
const MaxPoints = 3000

// Recorder keeps a step series in at most a fixed number of points, however
// many samples it is given. A sample that repeats the value before it
// changes nothing and is not kept (only the latest time is, so that the
// series reaches it). Up to the bound every change is kept as it came;
// past it, time from the first sample is cut into buckets of one width,
// and a change past the last bucket merges neighbouring buckets in pairs,
// doubling the width, until it fits. Each bucket keeps its lowest and
// highest values (the earlier of equals) and its last, so the series'
// extremes are exact and the level it holds between buckets is the one
// it really held.
//
// Samples must come in time order; one earlier than the last is taken at
// the last one's time (a clock stepping back), and a sample whose time or
// value is not a finite number is dropped.
type Recorder struct {
	max     int
	changes []Point  // every change, until they would pass max
	buckets []bucket // then these, nil until then
	origin  float64
	width   float64
	latest  Point // the latest sample
	started bool
}

// bucket is what a Recorder keeps of one interval's changes.
type bucket struct {
	lo, hi, last Point
	set          bool
}

// startWidth is the narrowest bucket, in the series' own unit of time: a
// millisecond where that is seconds. Doubling reaches any finite span in
// at most about 1,100 steps.
const startWidth = 1e-3

// NewRecorder keeps at most maxPoints points (at least 4).
func NewRecorder(maxPoints int) *Recorder {
	return &Recorder{max: max(maxPoints, 4)}
}

// Add records that the series is y from time x on.
func (r *Recorder) Add(x, y float64) {
	if !finite(x) || !finite(y) {
		return
	}
	if r.started {
		x = max(x, r.latest.X)
	}
	p := Point{x, y}
	changed := !r.started || y != r.latest.Y
	r.latest, r.started = p, true
	switch {
	case !changed:
	case r.buckets != nil:
		r.bucket(p)
	case len(r.changes) < r.max-1: // and the latest sample, when later
		r.changes = append(r.changes, p)
	default:
		r.toBuckets()
		r.bucket(p)
	}
}

// toBuckets turns the changes kept so far into buckets: (max-1)/3 of them,
// three points each and the latest sample keeping to max.
func (r *Recorder) toBuckets() {
	r.buckets = make([]bucket, (r.max-1)/3)
	r.origin, r.width = r.changes[0].X, startWidth
	for _, p := range r.changes {
		r.bucket(p)
	}
	r.changes = nil
}

// bucket adds a change to its bucket, widening them as it needs.
func (r *Recorder) bucket(p Point) {
	i := r.index(p.X)
	for i >= len(r.buckets) && !math.IsInf(r.width*2, 1) {
		r.coarsen()
		i = r.index(p.X)
	}
	i = min(i, len(r.buckets)-1)
	b := &r.buckets[i]
	if !b.set {
		*b = bucket{lo: p, hi: p, last: p, set: true}
		return
	}
	if p.Y < b.lo.Y {
		b.lo = p
	}
	if p.Y > b.hi.Y {
		b.hi = p
	}
	b.last = p
}

// index is the bucket of time x, or past the last one.
func (r *Recorder) index(x float64) int {
	f := (x - r.origin) / r.width
	if f >= float64(len(r.buckets)) {
		return len(r.buckets)
	}
	return int(f)
}

// coarsen merges neighbouring buckets in pairs and doubles the width.
func (r *Recorder) coarsen() {
	n := len(r.buckets)
	for i := 0; i < n; i++ {
		var b bucket
		if 2*i < n {
			b = merge(r.buckets[2*i], bucketAt(r.buckets, 2*i+1))
		}
		r.buckets[i] = b
	}
	r.width *= 2
}

func bucketAt(bs []bucket, i int) bucket {
	if i < len(bs) {
		return bs[i]
	}
	return bucket{}
}

// merge is what a bucket keeps of a and the later b together.
func merge(a, b bucket) bucket {
	switch {
	case !a.set:
		return b
	case !b.set:
		return a
	}
	m := bucket{lo: a.lo, hi: a.hi, last: b.last, set: true}
	if b.lo.Y < m.lo.Y {
		m.lo = b.lo
	}
	if b.hi.Y > m.hi.Y {
		m.hi = b.hi
	}
	return m
}

// Points are the kept changes in time order, each once, and the latest
// sample where it is later.
func (r *Recorder) Points() []Point {
	out := slices.Clone(r.changes)
	for _, b := range r.buckets {
		if !b.set {
			continue
		}
		ps := []Point{b.lo, b.hi, b.last}
		// Three points: order them by time (equal times keep their order).
		for i := 1; i < 3; i++ {
			for k := i; k > 0 && ps[k].X < ps[k-1].X; k-- {
				ps[k], ps[k-1] = ps[k-1], ps[k]
			}
		}
		for _, p := range ps {
			if n := len(out); n == 0 || out[n-1] != p {
				out = append(out, p)
			}
		}
	}
	if n := len(out); r.started && (n == 0 || r.latest.X > out[n-1].X) {
		out = append(out, r.latest)
	}
	return out
}

// Downsample returns points (in time order) as a Recorder of maxPoints
// keeps them: unchanged when they are no more.
func Downsample(points []Point, maxPoints int) []Point {
	if len(points) <= maxPoints {
		return points
	}
	r := NewRecorder(maxPoints)
	for _, p := range points {
		r.Add(p.X, p.Y)
	}
	return r.Points()
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
