package amtest

import (
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// Attempt names a task attempt: a Launch, a Kill, a RunningAttempt.
type Attempt interface {
	GetStageId() int64
	GetTaskIndex() int32
	GetAttempt() int32
}

func status(a Attempt, state wire.Status_State) *wire.Status {
	return &wire.Status{StageId: a.GetStageId(), TaskIndex: a.GetTaskIndex(), Attempt: a.GetAttempt(), State: state}
}

// Started is attempt a's report that it started.
func Started(a Attempt) *wire.Status { return status(a, wire.Status_STARTED) }

// Succeeded is attempt a's report that it succeeded.
func Succeeded(a Attempt) *wire.Status { return status(a, wire.Status_SUCCEEDED) }

// Failed is attempt a's report that it failed, why, with exit code exit.
func Failed(a Attempt, reason string, exit int32) *wire.Status {
	st := status(a, wire.Status_FAILED)
	st.Reason, st.ExitCode = reason, exit
	return st
}

// Killed is attempt a's report that it was killed, as asked.
func Killed(a Attempt) *wire.Status {
	st := status(a, wire.Status_KILLED)
	st.Reason = "killed"
	return st
}

// Report sends the driver statuses, as one batch.
func (e *Executor) Report(t testing.TB, statuses ...*wire.Status) {
	t.Helper()
	e.Send(t, &wire.Envelope{Message: &wire.Envelope_StatusBatch{StatusBatch: &wire.StatusBatch{Statuses: statuses}}})
}

// Heartbeat sends a heartbeat carrying gpus, the figures of its GPUs (if
// any), as the executor's sampler does.
func (e *Executor) Heartbeat(t testing.TB, gpus ...*wire.GPUUse) {
	t.Helper()
	e.Send(t, heartbeat(gpus))
}

func heartbeat(gpus []*wire.GPUUse) *wire.Envelope {
	return &wire.Envelope{Message: &wire.Envelope_Heartbeat{Heartbeat: &wire.Heartbeat{UnixNanos: time.Now().UnixNano(), Gpus: gpus}}}
}

// PortPicked answers the driver's PickPort for gang: port, free on the
// executor's host.
func (e *Executor) PortPicked(t testing.TB, gang int64, port int32) {
	t.Helper()
	e.Send(t, &wire.Envelope{Message: &wire.Envelope_PortPicked{PortPicked: &wire.PortPicked{Gang: gang, Port: port}}})
}

// BeatEvery sends a heartbeat every interval, from a goroutine of its
// own, until the executor vanishes or the test ends.
func (e *Executor) BeatEvery(interval time.Duration) {
	e.running.Go(func() {
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-e.quit:
				return
			case <-tick.C:
				if e.conn.Send(heartbeat(nil)) != nil {
					return
				}
			}
		}
	})
}
