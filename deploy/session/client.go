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
	Secret  []byte
	// Token is the client-to-AM token of a session on a secure cluster,
	// from its application report; every request carries it.
	Token *wire.ClientToken
}

// ErrRefused wraps the reason a session gave for refusing a request.
var ErrRefused = errors.New("the session refused")

// ErrNotSent wraps the error of a Submit that gave up, or failed, before
// its job was sent: the session has nothing of it.
var ErrNotSent = errors.New("the job was not sent")

// ErrLost wraps the error of a request whose session went away before it
// answered, or before a followed job ended.
var ErrLost = errors.New("lost the session")

// dial connects to the session and authenticates, within ctx.
func (c Client) dial(ctx context.Context) (*wire.Conn, error) {
	network := c.Network
	if network == "" {
		network = "tcp"
	}
	conn, err := wire.Dial(ctx, network, c.Addr, c.Secret)
	if errors.Is(err, wire.ErrNotAccepted) {
		return nil, fmt.Errorf("reaching the session at %s: the handshake failed: the session did not accept this client's proof of its secret (the secret this user holds is not the session's)", c.Addr)
	}
	if err != nil {
		return nil, fmt.Errorf("reaching the session at %s: %w", c.Addr, err)
	}
	return conn, nil
}

// do sends req and hands each answer to each until the session closes the
// connection (each returning false stops reading).
func (c Client) do(ctx context.Context, req *wire.Envelope, each func(*wire.Envelope) (bool, error)) error {
	conn, err := c.dial(ctx)
	if err != nil {
		return err
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
		case err != nil && ctx.Err() != nil:
			return context.Cause(ctx)
		case errors.Is(err, io.EOF):
			return fmt.Errorf("%w at %s: it closed the connection without an answer", ErrLost, c.Addr)
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

// Submission is a job a session has taken; while its client follows it,
// the connection it came on stays open for the job's updates.
type Submission struct {
	JobID int64
	// Notices are what the session says of the job: a pool it made up.
	Notices []string
	conn    *wire.Conn
	addr    string
	ended   bool
}

// Submit sends job and returns once the session has taken it, or refused
// it (ErrRefused). ctx bounds reaching the session and sending the job:
// ended before the job is sent, Submit returns an error wrapping
// ErrNotSent, and the session has nothing of it. Once the job is sent,
// Submit waits for the answer until abort ends, whatever becomes of ctx:
// a caller that gave up meanwhile learns the id of the job the session
// took, and can cancel it. With job.Follow, Next reads the job's updates;
// Close the Submission when done with it.
func (c Client) Submit(ctx, abort context.Context, job *wire.SubmitJob) (*Submission, error) {
	return c.open(ctx, abort, &wire.Envelope{Message: &wire.Envelope_SubmitJob{SubmitJob: job}}, job.GetFollow())
}

// Follow follows job id, which the session has already: a client whose
// session's ApplicationMaster was replaced by its next attempt, which
// took over its jobs, follows its job on there. ctx and abort are as
// Submit's; Next reads the job's updates.
func (c Client) Follow(ctx, abort context.Context, id int64) (*Submission, error) {
	return c.open(ctx, abort, &wire.Envelope{Message: &wire.Envelope_FollowJob{FollowJob: &wire.FollowJob{JobId: id}}}, true)
}

// open sends a request that a job's JobAccepted answers, then, when
// following, its updates.
func (c Client) open(ctx, abort context.Context, req *wire.Envelope, following bool) (*Submission, error) {
	conn, err := c.dial(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotSent, err)
	}
	if ctx.Err() != nil {
		conn.Close()
		return nil, fmt.Errorf("%w: %w", ErrNotSent, context.Cause(ctx))
	}
	stop := context.AfterFunc(abort, func() { conn.Close() })
	defer stop()
	req.ClientToken = c.Token
	if err := conn.Send(req); err != nil {
		conn.Close()
		return nil, fmt.Errorf("sending the job to the session at %s: %w", c.Addr, err)
	}
	m, err := conn.Recv()
	switch {
	case err != nil && abort.Err() != nil:
		err = fmt.Errorf("gave up waiting for the session's answer (it may have taken the job: spindle jobs tells): %w", context.Cause(abort))
	case errors.Is(err, io.EOF):
		err = fmt.Errorf("%w at %s: it closed the connection without an answer", ErrLost, c.Addr)
	case err == nil && m.GetRejected() != nil:
		err = fmt.Errorf("%w: %s", ErrRefused, m.GetRejected().GetReason())
	case err == nil && m.GetJobAccepted() == nil:
		err = fmt.Errorf("the session answered a request for a job with %T", m.GetMessage())
	}
	if err != nil {
		conn.Close()
		return nil, err
	}
	a := m.GetJobAccepted()
	s := &Submission{JobID: a.GetJobId(), Notices: a.GetNotices(), conn: conn, addr: c.Addr}
	if !following {
		s.Close()
	}
	return s, nil
}

// Next waits for the followed job's next update, until abort ends; the
// last update has Ended set. A session that goes away first is ErrLost.
func (s *Submission) Next(abort context.Context) (*wire.JobUpdate, error) {
	if s.ended {
		return nil, fmt.Errorf("job %d has ended: no more updates", s.JobID)
	}
	stop := context.AfterFunc(abort, func() { s.conn.Close() })
	defer stop()
	m, err := s.conn.Recv()
	switch {
	case err != nil && abort.Err() != nil:
		return nil, context.Cause(abort)
	case err != nil:
		return nil, fmt.Errorf("%w at %s while following job %d, before it ended: %w", ErrLost, s.addr, s.JobID, err)
	case m.GetJobUpdate() == nil:
		return nil, fmt.Errorf("the session sent %T while following job %d", m.GetMessage(), s.JobID)
	}
	u := m.GetJobUpdate()
	s.ended = u.GetEnded()
	return u, nil
}

// Wait follows the job to its end, until abort ends, and returns its last
// update.
func (s *Submission) Wait(abort context.Context) (*wire.JobUpdate, error) {
	for {
		u, err := s.Next(abort)
		if err != nil || u.GetEnded() {
			return u, err
		}
	}
}

// Close closes the job's connection; the job goes on.
func (s *Submission) Close() error { return s.conn.Close() }

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
