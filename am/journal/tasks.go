package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"math/bits"
	"strconv"
)

// maxTasks bounds a task index: above the 10,000,000 tasks jobspec lets
// a job have, so an index at or past it is no task's, and a corrupt
// range cannot make a reader allocate without bound.
const maxTasks = 1 << 24

// Tasks is a set of one stage's task indices. In memory it is a bitmap
// over the indices from its lowest to its highest, so that adding costs
// the same in whatever order tasks succeed; in a segment it is whichever
// is shorter, sorted ranges or that bitmap. Either way it costs at most
// about a byte per 6 indices between its lowest and highest (the
// bitmap's base64), so a stage of N tasks journals its done tasks in at
// most N/6 bytes whatever their pattern, and a few bytes when they ran
// in order, as they mostly do: tasks launch in index order, so the done
// ones are a prefix with a hole per task still running or retried.
type Tasks struct {
	base  int // the index of words[0]'s first bit, a multiple of 64
	words []uint64
	n     int
}

// Add adds task index i, which must be from 0 to below 1<<24.
func (t *Tasks) Add(i int) error {
	if i < 0 || i >= maxTasks {
		return fmt.Errorf("task index %d: want 0 to %d", i, maxTasks-1)
	}
	t.add(i)
	return nil
}

func (t *Tasks) add(i int) {
	w := i &^ 63
	switch {
	case len(t.words) == 0:
		t.base, t.words = w, make([]uint64, 1)
	case w < t.base:
		// Grow by at least as much again: tasks succeeding from the
		// highest index down cost no more than from the lowest up.
		grow := min(max((t.base-w)/64, len(t.words)), t.base/64)
		t.words = append(make([]uint64, grow, grow+len(t.words)), t.words...)
		t.base -= 64 * grow
	}
	k := (i - t.base) / 64
	if k >= len(t.words) {
		t.words = append(t.words, make([]uint64, k+1-len(t.words))...)
	}
	if bit := uint64(1) << (i & 63); t.words[k]&bit == 0 {
		t.words[k] |= bit
		t.n++
	}
}

// Len is how many tasks the set holds.
func (t *Tasks) Len() int { return t.n }

// Last is the highest index the set holds, -1 when it holds none.
func (t *Tasks) Last() int {
	if len(t.words) == 0 {
		return -1
	}
	k := len(t.words) - 1 // never 0: words are added at the end only to set a bit there
	return t.base + 64*k + 63 - bits.LeadingZeros64(t.words[k])
}

// Has says whether the set holds task index i.
func (t *Tasks) Has(i int) bool {
	k := (i - t.base) >> 6
	return i >= t.base && k < len(t.words) && t.words[k]&(1<<(i&63)) != 0
}

// All yields the set's indices in ascending order.
func (t *Tasks) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for from, to := range t.spans() {
			for i := from; i < to; i++ {
				if !yield(i) {
					return
				}
			}
		}
	}
}

// spans yields the set's maximal runs of indices [from, to), in order.
func (t *Tasks) spans() iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		start := -1
		for k, w := range t.words {
			at := t.base + 64*k
			if w == 0 || w == ^uint64(0) {
				if full := w != 0; full && start < 0 {
					start = at
				} else if !full && start >= 0 {
					if !yield(start, at) {
						return
					}
					start = -1
				}
				continue
			}
			for b := range 64 {
				if set := w&(1<<b) != 0; set && start < 0 {
					start = at + b
				} else if !set && start >= 0 {
					if !yield(start, at+b) {
						return
					}
					start = -1
				}
			}
		}
		if start >= 0 {
			yield(start, t.base+64*len(t.words))
		}
	}
}

// addRange adds indices from to to (exclusive), a word at a time: a
// range of a million costs as much as 16 thousand indices.
func (t *Tasks) addRange(from, to int) {
	t.add(from)
	t.add(to - 1) // the words now span the range
	for i := from; i < to; {
		k, off := (i-t.base)/64, i&63
		n := min(to-i, 64-off)
		mask := ^uint64(0) >> (64 - n) << off
		t.n += bits.OnesCount64(mask &^ t.words[k])
		t.words[k] |= mask
		i += n
	}
}

// addAll adds every index of o.
func (t *Tasks) addAll(o *Tasks) {
	for from, to := range o.spans() {
		t.addRange(from, to)
	}
}

// clone is a copy that shares nothing with t.
func (t *Tasks) clone() Tasks {
	return Tasks{base: t.base, words: append([]uint64(nil), t.words...), n: t.n}
}

// tasksJSON is a set as a segment holds it: Ranges, from, to, from,
// to... (each to exclusive), or a Bitmap whose bit b of byte k (least
// significant first) is task From+8k+b.
type tasksJSON struct {
	Ranges []int  `json:"ranges,omitempty"`
	From   int    `json:"from,omitempty"`
	Bitmap []byte `json:"bitmap,omitempty"`
}

// MarshalJSON writes the set as ranges or as a bitmap, whichever is
// shorter.
func (t Tasks) MarshalJSON() ([]byte, error) {
	var ranges []int
	rangesLen, first, last := 0, -1, -1
	for from, to := range t.spans() {
		ranges = append(ranges, from, to)
		rangesLen += len(strconv.Itoa(from)) + len(strconv.Itoa(to)) + 2
		if first < 0 {
			first = from
		}
		last = to
	}
	from := first &^ 7
	bitmapBytes := (last - from + 7) / 8
	if rangesLen <= 4*((bitmapBytes+2)/3)+len(strconv.Itoa(from))+8 {
		return json.Marshal(tasksJSON{Ranges: ranges})
	}
	bitmap := make([]byte, bitmapBytes)
	for i := range t.All() {
		bitmap[(i-from)/8] |= 1 << ((i - from) % 8)
	}
	return json.Marshal(tasksJSON{From: from, Bitmap: bitmap})
}

// UnmarshalJSON reads a set, refusing one that is empty, out of order
// or past the bound on task indices.
func (t *Tasks) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j tasksJSON
	if err := dec.Decode(&j); err != nil {
		return err
	}
	*t = Tasks{}
	switch {
	case len(j.Ranges) > 0 && len(j.Bitmap) > 0, len(j.Ranges) == 0 && len(j.Bitmap) == 0:
		return fmt.Errorf("tasks: want ranges or a bitmap, one of them")
	case len(j.Ranges) > 0:
		return t.fromRanges(j.Ranges)
	}
	if j.From < 0 || j.From+8*len(j.Bitmap) > maxTasks {
		return fmt.Errorf("tasks: a bitmap from %d of %d bytes: want indices from 0 to %d", j.From, len(j.Bitmap), maxTasks-1)
	}
	for k, b := range j.Bitmap {
		for bit := range 8 {
			if b&(1<<bit) != 0 {
				t.add(j.From + 8*k + bit)
			}
		}
	}
	if t.n == 0 {
		return fmt.Errorf("tasks: a bitmap of no task")
	}
	return nil
}

func (t *Tasks) fromRanges(r []int) error {
	if len(r)%2 != 0 {
		return fmt.Errorf("tasks: %d range bounds: want pairs, from and to", len(r))
	}
	prev := 0
	for k := 0; k < len(r); k += 2 {
		from, to := r[k], r[k+1]
		if from < prev || to <= from || to > maxTasks {
			return fmt.Errorf("tasks: range %d to %d after %d: want sorted, disjoint ranges within 0 to %d", from, to, prev, maxTasks)
		}
		t.addRange(from, to)
		prev = to
	}
	return nil
}
