package am

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"runtime/metrics"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/internal/refusals"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A session's clients reach the loop as events (events.go), each
// carrying a reply channel the loop answers on; their connections are
// served from goroutines of their own, which never touch the core.

// submitReply answers a submitRequest or a followRequest.
type submitReply struct {
	id       scheduler.JobID
	err      error
	follower *follower
	// written, with a journal, closes once the job is journalled.
	written <-chan struct{}
}

// journalWait bounds how long a submit's answer waits for its job to be
// journalled: a journal that cannot be written (HDFS away) does not stop
// the session taking jobs, which then do not survive its AM.
const journalWait = 10 * time.Second

// cancelReply answers a cancelRequest.
type cancelReply struct {
	job core.JobInfo
	err error
}

// follower is a client following a job: the loop hands it the job's
// progress, at most every followEvery and never waiting on the client
// (a slow one misses updates, not the end), and the last update once the
// job has ended.
type follower struct {
	job     scheduler.JobID
	updates chan *wire.JobUpdate // capacity 1: the latest wins
	final   chan *wire.JobUpdate // capacity 1: sent once
	gone    chan struct{}        // closed when the client's goroutine ends
	last    time.Time
}

// followEvery paces a followed job's progress updates.
const followEvery = 500 * time.Millisecond

// clientsGrace bounds how long a session that ended waits for its
// clients' goroutines to send what they have: followers their job's last
// update.
const clientsGrace = 5 * time.Second

// waitClients waits for the clients' goroutines, once the loop has ended
// and cancelled their context, for at most clientsGrace.
func (d *Driver) waitClients() {
	done := make(chan struct{})
	go func() {
		d.clients.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(clientsGrace):
		d.log.Warn("session clients still being served as the session ends")
	}
}

// requestTimeout bounds the wait for a client's request: a peer that holds
// the secret but says nothing does not keep a connection for good.
const requestTimeout = 10 * time.Second

// refusalsEvery is the least time between two lines about the session's
// refused client connections.
const refusalsEvery = 10 * time.Second

// acceptClients serves the session's clients, each from a goroutine of its
// own, until ctx ends. Connections refused are logged at most once every
// refusalsEvery (internal/refusals): anyone who can reach the port can
// make them.
func (d *Driver) acceptClients(ctx context.Context) {
	refused := refusals.New(d.log, "session client connection", refusalsEvery)
	defer refused.Close()
	for {
		conn, err := d.cfg.Clients.Accept(ctx)
		switch {
		case err == nil:
			d.clients.Add(1)
			go func() {
				defer d.clients.Done()
				d.serveClient(ctx, conn)
			}()
		case errors.Is(err, wire.ErrHandshake):
			refused.Refused(err)
		case ctx.Err() != nil || errors.Is(err, net.ErrClosed):
			return
		}
	}
}

// serveClient answers one client's request.
func (d *Driver) serveClient(ctx context.Context, conn *wire.Conn) {
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(requestTimeout))
	m, err := conn.Recv()
	if err != nil {
		return
	}
	conn.SetReadDeadline(time.Time{})
	if d.cfg.ClientAuth != nil {
		if err := d.cfg.ClientAuth(m.GetClientToken(), modifies(m)); err != nil {
			d.log.WithError(err).Warn("session client request refused")
			toClient(conn, &wire.Envelope{Message: &wire.Envelope_Rejected{Rejected: &wire.Rejected{Reason: err.Error()}}}, requestTimeout)
			return
		}
	}
	answer, f, err := d.answer(ctx, m)
	if err != nil {
		toClient(conn, &wire.Envelope{Message: &wire.Envelope_Rejected{Rejected: &wire.Rejected{Reason: err.Error()}}}, requestTimeout)
		return
	}
	if err := toClient(conn, answer, requestTimeout); err != nil || f == nil {
		if f != nil {
			close(f.gone)
		}
		return
	}
	follow(ctx, conn, f)
}

// toClient sends m to a session client, from the goroutine serving it
// (never the loop), within timeout: a client that stops reading is hung up
// on, its goroutine ends, and a follower's end drops it from the loop's
// followers, as a client that went away. requestTimeout is the bound, as
// for the client's request: a client has as long to take an answer as to
// ask.
func toClient(conn *wire.Conn, m *wire.Envelope, timeout time.Duration) error {
	conn.SetWriteDeadline(time.Now().Add(timeout))
	return conn.Send(m)
}

// modifies tells whether request m changes the session (YARN's
// MODIFY_APP) rather than only reading it (VIEW_APP).
func modifies(m *wire.Envelope) bool {
	return m.GetSubmitJob() != nil || m.GetCancelJob() != nil || m.GetStopSession() != nil
}

// answer is the session's answer to request m (an error refuses it) and,
// for a submit that follows its job, the follower.
func (d *Driver) answer(ctx context.Context, m *wire.Envelope) (*wire.Envelope, *follower, error) {
	list := func(jobs ...core.JobInfo) *wire.Envelope {
		return &wire.Envelope{Message: &wire.Envelope_JobList{JobList: jobList(jobs...)}}
	}
	switch {
	case m.GetSubmitJob() != nil:
		req := m.GetSubmitJob()
		job, err := sessionJob(req)
		if err != nil {
			return nil, nil, err
		}
		r, err := ask(d, ctx, func(reply chan submitReply) event { return submitRequest{job, req.GetFollow(), reply} })
		if err == nil {
			err = r.err
		}
		if err != nil {
			return nil, nil, err
		}
		d.awaitJournal(ctx, r)
		accepted := &wire.JobAccepted{JobId: int64(r.id)}
		if d.cfg.PoolNotice != nil {
			if n := d.cfg.PoolNotice(job.Pool); n != "" {
				accepted.Notices = append(accepted.Notices, n)
			}
		}
		return &wire.Envelope{Message: &wire.Envelope_JobAccepted{JobAccepted: accepted}}, r.follower, nil
	case m.GetFollowJob() != nil:
		id := scheduler.JobID(m.GetFollowJob().GetJobId())
		r, err := ask(d, ctx, func(reply chan submitReply) event { return followRequest{id, reply} })
		if err == nil {
			err = r.err
		}
		if err != nil {
			return nil, nil, err
		}
		return &wire.Envelope{Message: &wire.Envelope_JobAccepted{JobAccepted: &wire.JobAccepted{JobId: int64(id)}}}, r.follower, nil
	case m.GetListJobs() != nil:
		jobs, err := ask(d, ctx, func(reply chan []core.JobInfo) event { return listRequest{reply} })
		return list(jobs...), nil, err
	case m.GetCancelJob() != nil:
		req := m.GetCancelJob()
		r, err := ask(d, ctx, func(reply chan cancelReply) event {
			return cancelRequest{scheduler.JobID(req.GetJobId()), req.GetReason(), reply}
		})
		if err == nil {
			err = r.err
		}
		return list(r.job), nil, err
	case m.GetStopSession() != nil:
		jobs, err := ask(d, ctx, func(reply chan []core.JobInfo) event { return stopRequest{m.GetStopSession().GetReason(), reply} })
		return list(jobs...), nil, err
	case m.GetStatsRequest() != nil:
		heap := liveHeap(m.GetStatsRequest().GetCollect())
		st, err := ask(d, ctx, func(reply chan core.SessionStats) event { return statsRequest{reply} })
		stats := sessionStats(st)
		stats.HeapLiveBytes = heap
		return &wire.Envelope{Message: &wire.Envelope_Stats{Stats: stats}}, nil, err
	}
	return nil, nil, errors.New("not a session request")
}

// liveHeapMetric is the live heap as the last garbage collection found
// it: what the driver holds, without the garbage not yet collected.
const liveHeapMetric = "/gc/heap/live:bytes"

// liveHeap is the driver's live heap in bytes, for a stats answer, after
// a collection of its own when collect is set (else as of the last one,
// which on an idle driver may be two minutes old). It is read in the
// client's goroutine, not the loop's: a collection does not hold up the
// driver's decisions.
func liveHeap(collect bool) uint64 {
	if collect {
		runtime.GC()
	}
	s := []metrics.Sample{{Name: liveHeapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0 // a runtime without the metric
	}
	return s[0].Value.Uint64()
}

// awaitJournal waits, in the client's goroutine, until the job it
// submitted is journalled: a client told its job was taken can count on
// the session's next AM attempt having it too.
func (d *Driver) awaitJournal(ctx context.Context, r submitReply) {
	if r.written == nil {
		return
	}
	select {
	case <-r.written:
	case <-ctx.Done():
	case <-time.After(journalWait):
		d.log.WithField("job", r.id).Warnf("job accepted before the journal had it (%v): it does not survive the AM", journalWait)
	}
}

// errEnding refuses a request the loop, ending, will not answer.
var errEnding = errors.New("the session is ending")

// ask sends the loop a request and waits for its answer; errEnding once
// the loop has ended.
func ask[T any](d *Driver, ctx context.Context, ev func(chan T) event) (T, error) {
	reply := make(chan T, 1)
	var zero T
	select {
	case d.events <- ev(reply):
	case <-d.done:
		return zero, errEnding
	case <-ctx.Done():
		return zero, errEnding
	}
	select {
	case r := <-reply:
		return r, nil
	case <-d.done:
	case <-ctx.Done():
	}
	// The loop may have answered as it ended (a stop's answer, say): a
	// select picks among ready cases at random, so the answer is looked
	// for once more.
	select {
	case r := <-reply:
		return r, nil
	default:
		return zero, errEnding
	}
}

// follow sends a followed job's updates until it ends, or the client goes.
func follow(ctx context.Context, conn *wire.Conn, f *follower) {
	defer close(f.gone)
	for {
		var u *wire.JobUpdate
		select {
		case u = <-f.final:
		case u = <-f.updates:
		case <-ctx.Done():
			// The session ended: a job it ended with has its last
			// update waiting.
			select {
			case u = <-f.final:
			default:
				return
			}
		}
		if err := toClient(conn, &wire.Envelope{Message: &wire.Envelope_JobUpdate{JobUpdate: u}}, requestTimeout); err != nil || u.GetEnded() {
			return
		}
	}
}

// sessionJob reads a submitted job's spec as the client settled it.
func sessionJob(req *wire.SubmitJob) (*jobspec.Job, error) {
	source := req.GetSource()
	if source == "" {
		source = "submitted job"
	}
	job, err := jobspec.Parse(req.GetSpec(), source, jobspec.Defaults{CPUs: int(req.GetTaskCpus()), GPUs: req.GetTaskGpus(),
		MaxAttempts: int(req.GetMaxAttempts()), Pool: req.GetDefaultPool()})
	if err != nil {
		return nil, err
	}
	for _, o := range []struct {
		what, value string
		field       *string
	}{{"name", req.GetName(), &job.Name}, {"pool", req.GetPool(), &job.Pool}} {
		if o.value == "" {
			continue
		}
		if err := jobspec.CheckName(o.value); err != nil {
			return nil, fmt.Errorf("the job's %s: %w", o.what, err)
		}
		*o.field = o.value
	}
	return job, nil
}

// updateFollowers hands each follower its job's progress, or its end
// (finished are the summaries of the jobs that ended in this batch).
//
// It runs after every batch: a job's progress is looked up only when its
// follower is due an update, or the job ended.
func (d *Driver) updateFollowers(now time.Time, finished []core.Summary) {
	if len(d.followers) == 0 {
		return
	}
	ended := map[scheduler.JobID]core.Summary{}
	for _, s := range finished {
		ended[s.ID] = s
	}
	kept := d.followers[:0]
	for _, f := range d.followers {
		select {
		case <-f.gone:
			continue
		default:
		}
		s, done := ended[f.job]
		if !done && now.Sub(f.last) < followEvery {
			kept = append(kept, f)
			continue
		}
		info, ok := d.core.Job(now, f.job)
		if done || !ok || info.State != core.JobRunning {
			u := &wire.JobUpdate{Job: jobInfo(info), Executors: int32(d.core.Executors()), Ended: true}
			if done {
				u.Attempts, u.Retries, u.OutputCut, u.OutputCutMore = int32(s.Attempts), int32(s.Retries), s.OutputCut, int32(s.OutputCutMore)
			}
			f.final <- u
			continue
		}
		kept = append(kept, f)
		f.last = now
		select {
		case <-f.updates: // the client has not taken the last one: this one replaces it
		default:
		}
		f.updates <- &wire.JobUpdate{Job: jobInfo(info), Executors: int32(d.core.Executors())}
	}
	d.followers = kept
}

func jobInfo(j core.JobInfo) *wire.JobInfo {
	return &wire.JobInfo{Id: int64(j.ID), Name: j.Name, Pool: j.Pool, State: string(j.State), Tasks: int32(j.Tasks), Succeeded: int32(j.Succeeded),
		Running: int32(j.Running), FailedAttempts: int32(j.FailedAttempts), SubmittedUnixMs: j.Submitted.UnixMilli(),
		DurationMs: j.Duration.Milliseconds(), Reason: j.Reason, Waiting: j.Waiting}
}

func sessionStats(st core.SessionStats) *wire.Stats {
	return &wire.Stats{ExecutorSeconds: st.ExecutorSeconds, IdleExecutorSeconds: st.IdleExecutorSeconds, PeakExecutors: int32(st.PeakExecutors),
		ContainerRequests: int32(st.ContainerRequests), JobsSucceeded: int32(st.JobsSucceeded), JobsFailed: int32(st.JobsFailed),
		JobsCancelled: int32(st.JobsCancelled)}
}

func jobList(jobs ...core.JobInfo) *wire.JobList {
	l := &wire.JobList{}
	for _, j := range jobs {
		l.Jobs = append(l.Jobs, jobInfo(j))
	}
	return l
}
