package latest

// Feed passes values from one producer goroutine to take, which runs on
// a goroutine of the Feed's own.
type Feed[T any] struct {
	slot chan T        // capacity 1: the newest value not taken yet
	done chan struct{} // closed once take has had the last value
}

// Start runs take, on a goroutine of its own, on the values Put: on each
// in turn while it keeps up, else on the newest when it is free again.
func Start[T any](take func(T)) *Feed[T] {
	f := &Feed[T]{slot: make(chan T, 1), done: make(chan struct{})}
	go func() {
		defer close(f.done)
		for v := range f.slot {
			take(v)
		}
	}()
	return f
}

// Put hands v on, in place of a value take has not had yet; it never
// waits. Only one goroutine may Put, and not after Close.
func (f *Feed[T]) Put(v T) {
	select {
	case <-f.slot: // not taken yet: v replaces it
	default:
	}
	// The slot is empty: only this goroutine fills it.
	f.slot <- v
}

// Close waits until take has had the newest value put, and is done with
// it, then ends take's goroutine. It waits as long as take does.
func (f *Feed[T]) Close() {
	close(f.slot)
	<-f.done
}
