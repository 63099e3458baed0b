package executor

import (
	"slices"
	"testing"
)

// Every attempt added comes back once, first attempts of any task index
// (across the words of the bitmap) and later attempts alike.
func TestAttemptSetGivesBackEachAttempt(t *testing.T) {
	var s attemptSet
	want := []attemptFiles{{0, 0, 0}, {0, 63, 0}, {0, 64, 0}, {0, 1000, 0}, {1, 5, 0}, {0, 7, 2}, {1, 5, 1}}
	for _, a := range want {
		s.add(a)
	}
	s.add(attemptFiles{0, 64, 0}) // again: still once
	var got []attemptFiles
	s.each(func(a attemptFiles) { got = append(got, a) })
	key := func(a attemptFiles) []int32 { return []int32{a.stage, a.task, a.attempt} }
	cmp := func(x, y attemptFiles) int { return slices.Compare(key(x), key(y)) }
	slices.SortFunc(got, cmp)
	slices.SortFunc(want, cmp)
	if !slices.Equal(got, want) {
		t.Fatalf("each gave %v, want %v", got, want)
	}
}

// A job's first attempts cost a bit per task: a million tasks, 15,625
// words.
func TestAttemptSetCostsABitPerTask(t *testing.T) {
	var s attemptSet
	for i := range int32(1_000_000) {
		s.add(attemptFiles{task: i})
	}
	if n := len(s.first[0]); n != 1_000_000/64 {
		t.Fatalf("%d words for a million first attempts, want %d", n, 1_000_000/64)
	}
	n := 0
	s.each(func(attemptFiles) { n++ })
	if n != 1_000_000 || len(s.later) != 0 {
		t.Fatalf("%d attempts back, %d listed one by one; want 1000000 and none", n, len(s.later))
	}
}
