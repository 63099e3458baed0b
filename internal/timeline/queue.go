package timeline

import "time"

// Queue holds events of type T, each at a time: a binary heap by time,
// then by the order put in. It is its own heap rather than a
// container/heap, whose interface boxes each entry pushed: a
// simulation pushes an event for nearly everything it does.
type Queue[T any] struct {
	h   []entry[T]
	seq int
}

type entry[T any] struct {
	at  time.Time
	seq int
	v   T
}

func (e entry[T]) before(o entry[T]) bool {
	if !e.at.Equal(o.at) {
		return e.at.Before(o.at)
	}
	return e.seq < o.seq
}

// Push puts v in at time at, after every event already in at that time.
func (q *Queue[T]) Push(at time.Time, v T) {
	q.h = append(q.h, entry[T]{at: at, seq: q.seq, v: v})
	q.seq++
	for i := len(q.h) - 1; i > 0; {
		up := (i - 1) / 2
		if !q.h[i].before(q.h[up]) {
			break
		}
		q.h[i], q.h[up] = q.h[up], q.h[i]
		i = up
	}
}

// Pop takes out the earliest event, with its time; the queue must not
// be empty.
func (q *Queue[T]) Pop() (time.Time, T) {
	top := q.h[0]
	last := len(q.h) - 1
	q.h[0] = q.h[last]
	q.h[last] = entry[T]{} // let go of what it held
	q.h = q.h[:last]
	for i, n := 0, len(q.h); ; {
		first, l := i, 2*i+1
		if l < n && q.h[l].before(q.h[first]) {
			first = l
		}
		if r := l + 1; r < n && q.h[r].before(q.h[first]) {
			first = r
		}
		if first == i {
			break
		}
		q.h[i], q.h[first] = q.h[first], q.h[i]
		i = first
	}
	return top.at, top.v
}

// Len is how many events the queue holds.
func (q *Queue[T]) Len() int { return len(q.h) }

// Next is the earliest event's time; false when the queue is empty.
func (q *Queue[T]) Next() (time.Time, bool) {
	if len(q.h) == 0 {
		return time.Time{}, false
	}
	return q.h[0].at, true
}
