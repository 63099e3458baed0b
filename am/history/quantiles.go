package history

import "slices"

// A stage's summary, as Spark's stage page has it: the spread of its
// tasks' durations, to find stragglers without reading every row.

// Quantiles are the minimum, 25th percentile, median, 75th percentile
// and maximum of N values: each the value at its place in their order,
// p·(N−1), rounded to the nearest (the median of 4 values is the 3rd).
type Quantiles struct {
	N      int     `json:"n"`
	Min    float64 `json:"min"`
	P25    float64 `json:"p25"`
	Median float64 `json:"median"`
	P75    float64 `json:"p75"`
	Max    float64 `json:"max"`
}

// QuantilesOf are values' quantiles; nil for no values. It sorts
// values.
func QuantilesOf(values []float64) *Quantiles {
	n := len(values)
	if n == 0 {
		return nil
	}
	slices.Sort(values)
	p := places(n)
	return &Quantiles{N: n, Min: values[p[0]], P25: values[p[1]], Median: values[p[2]], P75: values[p[3]], Max: values[p[4]]}
}

// places are where the quantiles of n values are in their order.
func places(n int) [5]int {
	at := func(p float64) int { return int(p*float64(n-1) + 0.5) }
	return [5]int{0, at(0.25), at(0.5), at(0.75), n - 1}
}

// Durations are the quantiles of the durations, in seconds, of a stage's
// listed tasks that succeeded (their latest attempts'); nil when none
// has, false when the stage is not known. They are selected, not sorted
// (select.go): a stage of 100,000 tasks costs a few passes over them.
func (s *Store) Durations(id int64) (*Quantiles, bool) {
	s.mu.RLock()
	st := s.stages[id]
	if st == nil {
		s.mu.RUnlock()
		return nil, false
	}
	packed := make([]uint64, 0, min(st.succeeded, len(st.tasks)))
	for i := range st.tasks {
		if t := &st.tasks[i]; t.state == tSucceeded {
			packed = append(packed, uint64(min(max(t.end-t.start, 0), noKey-1))<<indexBits|uint64(i))
		}
	}
	s.mu.RUnlock() // the rest needs no lock
	n := len(packed)
	if n == 0 {
		return nil, true
	}
	p := places(n)
	// From the median outwards, each selection within what the last
	// left on its side, short of the place it fixed.
	sel := func(lo, hi, k int) {
		if lo <= k && k < hi {
			nth(packed[lo:hi], k-lo)
		}
	}
	sel(0, n, p[2])
	sel(0, p[2], p[1])
	sel(0, p[1], p[0])
	sel(p[2]+1, n, p[3])
	sel(p[3]+1, n, p[4])
	seconds := func(place int) float64 { return float64(packed[place]>>indexBits) / 1000 }
	return &Quantiles{N: n, Min: seconds(p[0]), P25: seconds(p[1]), Median: seconds(p[2]), P75: seconds(p[3]), Max: seconds(p[4])}, true
}
