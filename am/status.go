package am

import (
	"context"
	"errors"
	"time"
)

// Status is the job as the driver sees it at one moment: what the
// ApplicationMaster's tracking URL shows.
type Status struct {
	App            string           `json:"app"`
	Job            string           `json:"job"`
	ElapsedSeconds float64          `json:"elapsed_s"`
	Tasks          int              `json:"tasks"`
	Succeeded      int              `json:"succeeded"`
	Running        int              `json:"running"`
	Pending        int              `json:"pending"`
	FailedAttempts int              `json:"failed_attempts"`
	Waiting        []WaitingStage   `json:"waiting,omitempty"`
	Executors      []ExecutorStatus `json:"executors"`
}

// WaitingStage says why a stage's pending tasks are not running, in the
// scheduler's words ("0/2 executors can run it: ...").
type WaitingStage struct {
	Stage   string `json:"stage"`
	Pending int    `json:"pending"`
	Why     string `json:"why"`
}

// ExecutorStatus is one executor in a Status.
type ExecutorStatus struct {
	ID      string `json:"id"`
	Host    string `json:"host"`
	Running int    `json:"running"`
}

// statusRequest asks the event loop for a Status.
type statusRequest struct{ reply chan Status }

// ErrEnded is Status's answer once Run has returned.
var ErrEnded = errors.New("the job has ended")

// Status asks the event loop for a snapshot of the job; safe from any
// goroutine. The loop answers between two rounds of decisions.
func (d *Driver) Status(ctx context.Context) (Status, error) {
	req := statusRequest{reply: make(chan Status, 1)}
	select {
	case d.events <- req:
	case <-d.done:
		return Status{}, ErrEnded
	case <-ctx.Done():
		return Status{}, ctx.Err()
	}
	select {
	case st := <-req.reply:
		return st, nil
	case <-d.done:
		return Status{}, ErrEnded
	case <-ctx.Done():
		return Status{}, ctx.Err()
	}
}

// status builds a Status in the event loop.
func (d *Driver) status(now time.Time) Status {
	st := Status{App: d.cfg.AppID, Job: d.job.Name, ElapsedSeconds: now.Sub(d.start).Seconds()}
	if p, ok := d.sched.JobProgress(d.jobID); ok {
		st.Tasks, st.Succeeded, st.Running, st.Pending, st.FailedAttempts = p.Tasks, p.Succeeded, p.Running, p.Pending, p.FailedAttempts
	}
	for _, w := range d.sched.WhyPending(now, d.jobID) {
		st.Waiting = append(st.Waiting, WaitingStage{Stage: w.Name, Pending: w.Pending, Why: w.Message})
	}
	for _, e := range d.sched.Executors() {
		st.Executors = append(st.Executors, ExecutorStatus{ID: string(e.ID), Host: e.Host, Running: e.Running})
	}
	return st
}
