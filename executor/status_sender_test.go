package executor

import (
	"context"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// connPair returns both ends of an authenticated connection: the
// executor's (dialed) and the driver's.
func connPair(t *testing.T) (executorEnd, driverEnd *wire.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	secret := wire.NewSecret()
	ln, err := wire.Listen("tcp", "127.0.0.1:0", secret)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	executorEnd, err = wire.Dial(ctx, "tcp", ln.Addr().String(), secret)
	if err != nil {
		t.Fatal(err)
	}
	if driverEnd, err = ln.Accept(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { executorEnd.Close(); driverEnd.Close() })
	return executorEnd, driverEnd
}

// receiveStatuses reads n statuses from c, failing on a batch of more than
// maxStatusesPerBatch, and returns their task indices in order.
func receiveStatuses(t *testing.T, c *wire.Conn, n int) []int32 {
	t.Helper()
	var got []int32
	c.SetReadDeadline(time.Now().Add(10 * time.Second)) // a lost status fails the test, not hangs it
	for len(got) < n {
		m, err := c.Recv()
		if err != nil {
			t.Fatalf("after %d statuses: %v", len(got), err)
		}
		batch := m.GetStatusBatch().GetStatuses()
		if len(batch) > maxStatusesPerBatch {
			t.Fatalf("a batch of %d statuses; at most %d go in one", len(batch), maxStatusesPerBatch)
		}
		for _, st := range batch {
			got = append(got, st.GetTaskIndex())
		}
	}
	return got
}

func wantInOrder(t *testing.T, got []int32, n int) {
	t.Helper()
	if len(got) != n {
		t.Fatalf("%d statuses, want %d", len(got), n)
	}
	for i, index := range got {
		if index != int32(i) {
			t.Fatalf("status %d is task %d's: out of order", i, index)
		}
	}
}

// Without a driver, statuses wait for the next: statusBuffer of them in
// the buffer, and one past it with the task that produced it. The next
// driver gets every one, in order, in batches of at most
// maxStatusesPerBatch, the one whose send failed on the old connection
// first.
func TestStatusesWaitInOrderForTheNextDriver(t *testing.T) {
	e := &executor{out: make(chan *wire.Status, statusBuffer)}
	drivers, done := make(chan *wire.Conn), make(chan struct{})
	go e.sendStatuses(drivers, done)
	old, _ := connPair(t)
	drivers <- old
	old.Close()                         // The old driver is gone:
	e.out <- &wire.Status{TaskIndex: 0} // this one's send fails
	for len(e.out) > 0 {
		time.Sleep(time.Millisecond)
	}
	drivers <- nil                              // and the loop says so.
	for i := int32(1); i <= statusBuffer; i++ { // The buffer fills, exactly:
		e.out <- &wire.Status{TaskIndex: i}
	}
	select {
	case e.out <- &wire.Status{TaskIndex: statusBuffer + 1}:
		t.Fatalf("the buffer took a status past its %d", statusBuffer)
	default:
	}
	past := make(chan struct{})
	go func() {
		defer close(past)
		e.out <- &wire.Status{TaskIndex: statusBuffer + 1} // its producer waits
	}()
	next, driver := connPair(t)
	drivers <- next
	wantInOrder(t, receiveStatuses(t, driver, statusBuffer+2), statusBuffer+2)
	<-past
	close(drivers)
	close(e.out)
	<-done
}

// Once no driver will come, what is left is dropped rather than waited
// on, so the executor's end never hangs on a full buffer.
func TestStatusesAreDroppedOnceNoDriverWillCome(t *testing.T) {
	e := &executor{out: make(chan *wire.Status, statusBuffer)}
	drivers, done := make(chan *wire.Conn), make(chan struct{})
	go e.sendStatuses(drivers, done)
	drivers <- nil
	close(drivers)
	go func() {
		for i := range 3 * statusBuffer {
			e.out <- &wire.Status{TaskIndex: int32(i)}
		}
		close(e.out)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the sender did not end")
	}
}
