package timeline

import (
	"slices"
	"testing"
	"time"
)

// Events come out earliest first, and those at one instant in the
// order they were put in.
func TestEventsComeOutByTimeThenByOrderPutIn(t *testing.T) {
	var q Queue[string]
	t0 := time.Unix(0, 0)
	if _, ok := q.Next(); ok {
		t.Fatal("an empty queue has a next event")
	}
	q.Push(t0.Add(2*time.Second), "c")
	q.Push(t0.Add(time.Second), "a")
	q.Push(t0.Add(3*time.Second), "e")
	q.Push(t0.Add(time.Second), "b")
	q.Push(t0.Add(2*time.Second), "d")
	if at, ok := q.Next(); !ok || !at.Equal(t0.Add(time.Second)) {
		t.Fatalf("next at %v, %v; want 1s", at, ok)
	}
	var got []string
	var last time.Time
	for q.Len() > 0 {
		at, v := q.Pop()
		if at.Before(last) {
			t.Fatalf("%s at %v came after an event at %v", v, at, last)
		}
		last = at
		got = append(got, v)
	}
	if want := []string{"a", "b", "c", "d", "e"}; !slices.Equal(got, want) {
		t.Errorf("came out %v; want %v", got, want)
	}
}

// Many events pushed in a scrambled order come out by time, and those
// at one time in the order put in: the heap keeps its order through
// every push and pop.
func TestManyEventsComeOutSorted(t *testing.T) {
	var q Queue[int]
	t0 := time.Unix(0, 0)
	const n = 1000
	for i := range n {
		q.Push(t0.Add(time.Duration((i*7919)%97)*time.Millisecond), i)
		if i%10 == 9 { // popping as it goes, as a simulation does
			q.Pop()
			q.Push(t0.Add(time.Second), n+i)
		}
	}
	lastAt, lastPut := time.Time{}, -1
	for q.Len() > 0 {
		at, put := q.Pop()
		if at.Before(lastAt) || (at.Equal(lastAt) && put < lastPut) {
			t.Fatalf("%d at %v came out after %d at %v", put, at, lastPut, lastAt)
		}
		lastAt, lastPut = at, put
	}
}
