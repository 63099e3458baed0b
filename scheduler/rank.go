package scheduler

// FAIR placement chooses, for every task it places, the best pool by
// fairLess and, in a FAIR pool, the stage with the fewest running tasks.
// Scanning every pool (or stage) for that made a backlog of thousands
// quadratic per placement round. A rank keeps them in a binary heap
// instead: the best is at the top, and a pool or stage whose running count
// changes moves in O(log n). What a round finds it cannot use it sets aside
// until the round ends, so the round looks at each at most once.

// rankable is a pool or a stage as a rank holds it: where it is in the
// heap, and the ordering.
type rankable[T any] interface {
	comparable
	rankSlot() *int // 1 + its index in the heap; 0 when not in it
	ranksBefore(T) bool
}

// rank is a min-heap by ranksBefore, a total order, so the top is the
// same whatever the heap's shape: placement stays deterministic.
type rank[T rankable[T]] struct {
	heap  []T
	aside []T // taken off the heap for the rest of this round
}

func (r *rank[T]) push(x T) {
	r.heap = append(r.heap, x)
	*x.rankSlot() = len(r.heap)
	r.up(len(r.heap) - 1)
}

// remove takes x off the heap; x must not be set aside (nothing leaves a
// rank during a round).
func (r *rank[T]) remove(x T) {
	i := *x.rankSlot() - 1
	if i < 0 {
		return
	}
	last := len(r.heap) - 1
	r.swap(i, last)
	var zero T
	r.heap[last] = zero // the backing array must not keep it alive
	r.heap = r.heap[:last]
	*x.rankSlot() = 0
	if i < last {
		r.fix(r.heap[i])
	}
}

// fix restores the order after x's key changed. One set aside takes its
// place by its key when it comes back.
func (r *rank[T]) fix(x T) {
	if i := *x.rankSlot() - 1; i >= 0 && !r.up(i) {
		r.down(i)
	}
}

// first is the best of what is on the heap.
func (r *rank[T]) first() (T, bool) {
	if len(r.heap) == 0 {
		var zero T
		return zero, false
	}
	return r.heap[0], true
}

// reorder restores the heap after every key changed at once.
func (r *rank[T]) reorder() {
	for i := len(r.heap)/2 - 1; i >= 0; i-- {
		r.down(i)
	}
}

// setAside takes the best off the heap until restore.
func (r *rank[T]) setAside() {
	x := r.heap[0]
	r.remove(x)
	r.aside = append(r.aside, x)
}

// restore puts back what was set aside.
func (r *rank[T]) restore() {
	for i, x := range r.aside {
		r.push(x)
		var zero T
		r.aside[i] = zero
	}
	r.aside = r.aside[:0]
}

func (r *rank[T]) swap(i, j int) {
	r.heap[i], r.heap[j] = r.heap[j], r.heap[i]
	*r.heap[i].rankSlot() = i + 1
	*r.heap[j].rankSlot() = j + 1
}

// up moves the item at i towards the top; true if it moved.
func (r *rank[T]) up(i int) bool {
	moved := false
	for i > 0 {
		p := (i - 1) / 2
		if !r.heap[i].ranksBefore(r.heap[p]) {
			break
		}
		r.swap(i, p)
		i, moved = p, true
	}
	return moved
}

func (r *rank[T]) down(i int) {
	for {
		m, l := i, 2*i+1
		if l < len(r.heap) && r.heap[l].ranksBefore(r.heap[m]) {
			m = l
		}
		if c := l + 1; c < len(r.heap) && r.heap[c].ranksBefore(r.heap[m]) {
			m = c
		}
		if m == i {
			return
		}
		r.swap(i, m)
		i = m
	}
}

// rerank keeps the FAIR ranks in order after the running count of st,
// and so of its pool, changed (under FIFO neither is ranked).
func (s *Scheduler) rerank(st *stage) {
	st.job.pool.stages.fix(st)
	s.fair.fix(st.job.pool)
}

func (p *pool) rankSlot() *int           { return &p.rankIdx }
func (p *pool) ranksBefore(q *pool) bool { return fairLess(p, q) }

func (st *stage) rankSlot() *int { return &st.rankIdx }

// ranksBefore is the order within a FAIR pool: fewest running tasks (each
// stage a task set of weight 1 and minShare 0, as in Spark), then the
// older.
func (st *stage) ranksBefore(o *stage) bool {
	if st.running != o.running {
		return st.running < o.running
	}
	return stageOrder(st, o) < 0
}
