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
	at := func(p float64) float64 { return values[int(p*float64(n-1)+0.5)] }
	return &Quantiles{N: n, Min: values[0], P25: at(0.25), Median: at(0.5), P75: at(0.75), Max: values[n-1]}
}

// Durations are the quantiles of the durations, in seconds, of a stage's
// listed tasks that succeeded (their latest attempts'); nil when none
// has, false when the stage is not known.
func (s *Store) Durations(id int64) (*Quantiles, bool) {
	s.mu.RLock()
	st := s.stages[id]
	if st == nil {
		s.mu.RUnlock()
		return nil, false
	}
	values := make([]float64, 0, st.succeeded)
	for i := range st.tasks {
		if t := &st.tasks[i]; t.state == tSucceeded {
			values = append(values, float64(t.end-t.start)/1000)
		}
	}
	s.mu.RUnlock() // the sort needs no lock
	return QuantilesOf(values), true
}
