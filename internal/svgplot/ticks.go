package svgplot

import (
	"math"
	"strconv"
)

// ticks returns the axis' top (at least hi) and tick values from lo, on a
// step of 1, 2 or 5 times a power of ten that gives about five
// intervals; whole keeps the step at least 1.
func ticks(lo, hi float64, whole bool) (top float64, at []float64) {
	span := hi - lo
	if !(span > 0) {
		span = 1
	}
	step := niceStep(span / 5)
	if whole {
		step = max(step, 1)
	}
	n := math.Ceil(span/step - 1e-9)
	if !(n >= 1 && n <= maxTicks) {
		// A span too small or too large for float steps: its ends alone.
		return lo + span, []float64{lo, lo + span}
	}
	top = lo + n*step
	for i := 0.0; i <= n; i++ {
		at = append(at, lo+i*step)
	}
	return top, at
}

// maxTicks bounds an axis' ticks: a nice step gives at most 10 for
// spans floats can step through.
const maxTicks = 20

// niceStep is the least of 1, 2 or 5 times a power of ten that is at
// least raw.
func niceStep(raw float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// label writes a tick's value, as short as it reads.
func label(v float64) string {
	return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64)
}
