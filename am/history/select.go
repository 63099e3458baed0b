package history

import "slices"

// Ordering a stage's 100,000 tasks for each page a browser asks for
// must not cost a sort of them all: a page needs only its own places in
// the order, which selection finds in time linear in the tasks (a
// quickselect, as C++'s nth_element), then a sort of the page alone.
// The values are distinct (ranked keys: a task's key and its index,
// packed), so no run of equal ones slows it.

// sortRange puts into x[lo:hi] the values a sort of x would put there,
// in order; the rest of x is left in no order.
func sortRange(x []uint64, lo, hi int) {
	lo, hi = min(lo, len(x)), min(hi, len(x))
	if lo >= hi {
		return
	}
	nth(x, lo)
	nth(x[lo:], hi-lo-1)
	slices.Sort(x[lo:hi])
}

// nth puts in x[k] the value a sort would, the smaller ones before it
// and the greater after. A pivot that keeps choosing badly (far more
// rounds than a halving would take) gives way to a sort.
func nth(x []uint64, k int) {
	for rounds := 0; len(x) > 16; rounds++ {
		if rounds > 64 {
			slices.Sort(x)
			return
		}
		i := partition(x)
		switch {
		case k == i:
			return
		case k < i:
			x = x[:i]
		default:
			x, k = x[i+1:], k-i-1
		}
	}
	slices.Sort(x)
}

// partition splits x around the median of its first, middle and last
// values and returns where that pivot now is.
func partition(x []uint64) int {
	last, mid := len(x)-1, len(x)/2
	if x[mid] < x[0] {
		x[mid], x[0] = x[0], x[mid]
	}
	if x[last] < x[0] {
		x[last], x[0] = x[0], x[last]
	}
	if x[mid] < x[last] {
		x[mid], x[last] = x[last], x[mid]
	}
	pivot, i := x[last], 0
	for j := range last {
		if x[j] < pivot {
			x[i], x[j] = x[j], x[i]
			i++
		}
	}
	x[i], x[last] = x[last], x[i]
	return i
}
