package session

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// Client sends a session its requests: each on a connection of its own,
// authenticated by the session's secret.
type Client struct {
	// Network is "unix" for a local session (Addr its socket's path), or
	// "tcp" (Addr host:port); "" is "tcp".
	Network string
	Addr    string
	Secret []byte
	// Token is the client-to-AM token of a session on a secure cluster,
	// from its application report; every request carries it.
	Token *wire.ClientToken
}

// ErrRefused wraps the reason a session gave for refusing a request.
var ErrRefused = errors.New("the session refused")

// do sends req and hands each answer to each until the session closes the
// connection (each returning false stops reading).
func (c Client) do(ctx context.Context, req *wire.Envelope, each func(*wire.Envelope) (bool, error)) error {
	network := c.Network
	if network == "" {
		network = "tcp"
	}
	conn, err := wire.Dial(ctx, network, c.Addr, c.Secret)
	if err != nil {
		return fmt.Errorf("reaching the session at %s: %w", c.Addr, err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	req.ClientToken = c.Token
	if err := conn.Send(req); err != nil {
		return err
	}
	for {
		m, err := conn.Recv()
		switch {
		case errors.Is(err, io.EOF):
			return fmt.Errorf("the session at %s closed the connection without an answer", c.Addr)
		case err != nil && ctx.Err() != nil:
			return context.Cause(ctx)
		case err != nil:
			return err
		}
		if r := m.GetRejected(); r != nil {
			return fmt.Errorf("%w: %s", ErrRefused, r.GetReason())
		}
		more, err := each(m)
		if err != nil || !more {
			return err
		}
	}
}

// Submit sends a job. With follow set, each progress update goes to
// update, and Submit returns once the job has ended, with its last update.
// accepted is called once the session has taken the job.
func (c Client) Submit(ctx context.Context, job *wire.SubmitJob, accepted func(*wire.JobAccepted), update func(*wire.JobUpdate)) (*wire.JobUpdate, error) {
	var last *wire.JobUpdate
	err := c.do(ctx, &wire.Envelope{Message: &wire.Envelope_SubmitJob{SubmitJob: job}}, func(m *wire.Envelope) (bool, error) {
		switch {
		case m.GetJobAccepted() != nil:
			accepted(m.GetJobAccepted())
			return job.GetFollow(), nil
		case m.GetJobUpdate() != nil:
			last = m.GetJobUpdate()
			if update != nil {
				update(last)
			}
			return !last.GetEnded(), nil
		}
		return false, fmt.Errorf("the session answered a submit with %T", m.GetMessage())
	})
	return last, err
}

// Jobs lists the session's jobs.
func (c Client) Jobs(ctx context.Context) ([]*wire.JobInfo, error) {
	return c.jobList(ctx, &wire.Envelope{Message: &wire.Envelope_ListJobs{ListJobs: &wire.ListJobs{}}})
}

// Cancel cancels one job, and returns it.
func (c Client) Cancel(ctx context.Context, id int64, reason string) (*wire.JobInfo, error) {
	jobs, err := c.jobList(ctx, &wire.Envelope{Message: &wire.Envelope_CancelJob{CancelJob: &wire.CancelJob{JobId: id, Reason: reason}}})
	if err != nil {
		return nil, err
	}
	if len(jobs) != 1 {
		return nil, fmt.Errorf("the session answered a cancel with %d jobs", len(jobs))
	}
	return jobs[0], nil
}

// Stop stops the session: its running jobs are cancelled. It returns the
// jobs as they were when it stopped.
func (c Client) Stop(ctx context.Context, reason string) ([]*wire.JobInfo, error) {
	return c.jobList(ctx, &wire.Envelope{Message: &wire.Envelope_StopSession{StopSession: &wire.StopSession{Reason: reason}}})
}

// Stats is what the session's executors have cost since it started, and
// its jobs that ended.
func (c Client) Stats(ctx context.Context) (*wire.Stats, error) {
	var st *wire.Stats
	err := c.do(ctx, &wire.Envelope{Message: &wire.Envelope_StatsRequest{StatsRequest: &wire.StatsRequest{}}}, func(m *wire.Envelope) (bool, error) {
		if st = m.GetStats(); st == nil {
			return false, fmt.Errorf("the session answered a stats request with %T", m.GetMessage())
		}
		return false, nil
	})
	return st, err
}

func (c Client) jobList(ctx context.Context, req *wire.Envelope) ([]*wire.JobInfo, error) {
	var jobs []*wire.JobInfo
	err := c.do(ctx, req, func(m *wire.Envelope) (bool, error) {
		if m.GetJobList() == nil {
			return false, fmt.Errorf("the session answered with %T", m.GetMessage())
		}
		jobs = m.GetJobList().GetJobs()
		return false, nil
	})
	return jobs, err
}
