package amtest

import (
	"context"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// Client is a fake session client: each request is a connection of its
// own to the session's client port, as spindle's CLI makes.
type Client struct {
	addr   string
	secret []byte
}

// Client is a client of the session that holds its secret.
func (d *Driver) Client() *Client { return d.ClientWithSecret(ClientSecret) }

// ClientWithSecret is a client that proves it holds secret, right or
// wrong.
func (d *Driver) ClientWithSecret(secret []byte) *Client { return &Client{d.clients, secret} }

// Request sends the session m and returns its answers, up to its closing
// the connection; an error where the session cannot be reached, or does
// not authenticate the client. It waits up to Patience for each answer,
// and may be called from any goroutine.
func (c *Client) Request(m *wire.Envelope) ([]*wire.Envelope, error) {
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	conn, err := wire.Dial(ctx, "tcp", c.addr, c.secret)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if err := conn.Send(m); err != nil {
		return nil, err
	}
	var out []*wire.Envelope
	for {
		conn.SetReadDeadline(time.Now().Add(Patience))
		r, err := conn.Recv()
		if err != nil {
			return out, nil
		}
		out = append(out, r)
	}
}

// answer is Request's one answer to m, which the test expects to be
// taken, not refused.
func (c *Client) answer(t testing.TB, m *wire.Envelope) *wire.Envelope {
	t.Helper()
	out, err := c.Request(m)
	if err != nil || len(out) != 1 || out[0].GetRejected() != nil {
		t.Fatalf("the session answered %v with %v, %v", m, out, err)
	}
	return out[0]
}

// Submit submits spec, unfollowed, and returns its job's id.
func (c *Client) Submit(t testing.TB, spec string) int64 {
	t.Helper()
	return c.answer(t, SubmitJob(spec, false)).GetJobAccepted().GetJobId()
}

// SubmitFollow submits spec and follows its job to its end: it returns
// the job's id and its updates, the last one its end.
func (c *Client) SubmitFollow(t testing.TB, spec string) (int64, []*wire.JobUpdate) {
	t.Helper()
	return c.follow(t, SubmitJob(spec, true))
}

// Follow follows job id, already submitted, to its end; it returns its
// updates, the last one its end.
func (c *Client) Follow(t testing.TB, id int64) []*wire.JobUpdate {
	t.Helper()
	_, updates := c.follow(t, &wire.Envelope{Message: &wire.Envelope_FollowJob{FollowJob: &wire.FollowJob{JobId: id}}})
	return updates
}

func (c *Client) follow(t testing.TB, m *wire.Envelope) (int64, []*wire.JobUpdate) {
	t.Helper()
	out, err := c.Request(m)
	if err != nil || len(out) < 2 || out[0].GetJobAccepted() == nil || !out[len(out)-1].GetJobUpdate().GetEnded() {
		t.Fatalf("following %v: %v, %v; want it accepted, then updates to its end", m, out, err)
	}
	var updates []*wire.JobUpdate
	for _, u := range out[1:] {
		updates = append(updates, u.GetJobUpdate())
	}
	return out[0].GetJobAccepted().GetJobId(), updates
}

// Jobs lists the session's jobs.
func (c *Client) Jobs(t testing.TB) []*wire.JobInfo {
	t.Helper()
	return c.answer(t, ListJobs()).GetJobList().GetJobs()
}

// Cancel cancels job id, saying why, and returns it as the session
// answered.
func (c *Client) Cancel(t testing.TB, id int64, reason string) *wire.JobInfo {
	t.Helper()
	jobs := c.answer(t, CancelJob(id, reason)).GetJobList().GetJobs()
	if len(jobs) != 1 {
		t.Fatalf("cancelling job %d: the session answered %v", id, jobs)
	}
	return jobs[0]
}

// Stop stops the session, saying why, and returns its jobs as it
// answered.
func (c *Client) Stop(t testing.TB, reason string) []*wire.JobInfo {
	t.Helper()
	return c.answer(t, StopSession(reason)).GetJobList().GetJobs()
}

// Stats are the session's stats; collect has its driver collect its
// garbage first, for the live heap.
func (c *Client) Stats(t testing.TB, collect bool) *wire.Stats {
	t.Helper()
	return c.answer(t, &wire.Envelope{Message: &wire.Envelope_StatsRequest{StatsRequest: &wire.StatsRequest{Collect: collect}}}).GetStats()
}

// SubmitJob is a request to submit spec, from "test.yaml" into pool
// default unless it names one, following its job if follow.
func SubmitJob(spec string, follow bool) *wire.Envelope {
	return &wire.Envelope{Message: &wire.Envelope_SubmitJob{SubmitJob: &wire.SubmitJob{Spec: []byte(spec), Source: "test.yaml", Follow: follow, DefaultPool: "default"}}}
}

// ListJobs is a request for the session's jobs.
func ListJobs() *wire.Envelope {
	return &wire.Envelope{Message: &wire.Envelope_ListJobs{ListJobs: &wire.ListJobs{}}}
}

// CancelJob is a request to cancel job id, saying why.
func CancelJob(id int64, reason string) *wire.Envelope {
	return &wire.Envelope{Message: &wire.Envelope_CancelJob{CancelJob: &wire.CancelJob{JobId: id, Reason: reason}}}
}

// StopSession is a request to stop the session, saying why.
func StopSession(reason string) *wire.Envelope {
	return &wire.Envelope{Message: &wire.Envelope_StopSession{StopSession: &wire.StopSession{Reason: reason}}}
}

// ClientAddr is where a session's clients connect.
func (d *Driver) ClientAddr() string { return d.clients }
