// Package suggest finds the known name nearest to a mistyped one, for
// "did you mean" hints in configuration errors. It is pure, so the
// scheduler core may use it.
package suggest

// Distance is the Levenshtein distance between a and b in bytes, or limit
// when it is limit or more: the bound keeps a long hostile input from
// costing len(a)*len(b) against every known name.
func Distance(a, b string, limit int) int {
	if len(a)-len(b) >= limit || len(b)-len(a) >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}
