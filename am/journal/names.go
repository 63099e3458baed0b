package journal

import (
	"fmt"
	"strconv"
	"strings"
)

// A segment's name carries the AM attempt that wrote it and its place in
// that attempt's chain, both zero-padded so that names sort as written:
// a0000000002-0000000017.seg. An attempt writes only under its own
// number, so it never overwrites another's segment, and a reader takes
// one attempt's chain (Load): an older attempt that writes on, cut off
// from YARN but not from the store, cannot mix its segments into a newer
// one's.
type segment struct{ attempt, seq int }

func (s segment) name() string { return fmt.Sprintf("a%010d-%010d.seg", s.attempt, s.seq) }

// nameKind is what a name in the journal's directory is.
type nameKind int

const (
	otherName  nameKind = iota // a half-written segment's temporary name, or not the journal's
	segmentOf                  // a segment: a0000000002-0000000017.seg
	legacyName                 // a segment of version 1, before fencing: 0000000017.seg
)

// parseName reads a name of the journal's directory.
func parseName(name string) (segment, nameKind) {
	base, ok := strings.CutSuffix(name, ".seg")
	if !ok {
		return segment{}, otherName
	}
	if len(base) == 10 && digits(base) {
		return segment{}, legacyName
	}
	a, seq, ok := strings.Cut(base, "-")
	a, isA := strings.CutPrefix(a, "a")
	if !ok || !isA || len(a) != 10 || len(seq) != 10 || !digits(a) || !digits(seq) {
		return segment{}, otherName
	}
	attempt, _ := strconv.Atoi(a)
	n, _ := strconv.Atoi(seq)
	return segment{attempt, n}, segmentOf
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
