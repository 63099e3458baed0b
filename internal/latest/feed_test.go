package latest

import (
	"slices"
	"testing"
	"time"
)

// A consumer that is busy gets the newest value put meanwhile, not each,
// and the producer never waits for it; Close waits for the newest.
func TestASlowTakerGetsOnlyTheNewest(t *testing.T) {
	taking := make(chan int) // take has a value, and is stuck on it
	release := make(chan struct{})
	var taken []int
	f := Start(func(v int) {
		taken = append(taken, v)
		if v == 1 {
			taking <- v
			<-release
		}
	})
	f.Put(1)
	<-taking
	put := make(chan struct{})
	go func() {
		for v := 2; v <= 1000; v++ {
			f.Put(v)
		}
		close(put)
	}()
	select {
	case <-put:
	case <-time.After(10 * time.Second):
		t.Fatal("Put waited for a taker that is stuck")
	}
	close(release)
	f.Close()
	if !slices.Equal(taken, []int{1, 1000}) {
		t.Errorf("taken %v; want the first, then only the newest", taken)
	}
}

// A taker that keeps up gets every value, in order.
func TestATakerThatKeepsUpGetsEach(t *testing.T) {
	took := make(chan int)
	var taken []int
	f := Start(func(v int) {
		taken = append(taken, v)
		took <- v
	})
	for v := range 5 {
		f.Put(v)
		<-took
	}
	f.Close()
	if !slices.Equal(taken, []int{0, 1, 2, 3, 4}) {
		t.Errorf("taken %v; want each value", taken)
	}
}
