package am

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

var sessionSecret = []byte("fedcba9876543210fedcba9876543210")

// startSession runs a session driver with one fake executor of 2 cores,
// which runs a task whose argv is "true" at once and holds any other
// until it is killed.
func startSession(t *testing.T) (*Driver, <-chan core.Final) {
	t.Helper()
	return startSessionWith(t, nil)
}

// startSessionWith is startSession with a ClientAuth.
func startSessionWith(t *testing.T, auth func(*wire.ClientToken, bool) error) (*Driver, <-chan core.Final) {
	t.Helper()
	return startSessionConfig(t, func(c *Config) { c.ClientAuth = auth })
}

// startSessionConfig is startSession with its Config changed by set.
func startSessionConfig(t *testing.T, set func(*Config)) (*Driver, <-chan core.Final) {
	t.Helper()
	clients := listen(t, sessionSecret)
	cfg := Config{Core: core.Config{AppID: "local-session", Session: true, Profiles: []scheduler.Profile{{Cores: 2}}},
		Executors: listen(t, testSecret), Clients: clients, PoolNotice: func(pool string) string {
			if pool == "adhoc" {
				return `pool "adhoc": created with Spark's defaults`
			}
			return ""
		}}
	set(&cfg)
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ended := make(chan core.Final, 1)
	go func() {
		_, final, _ := d.Run(ctx, nil, nil)
		ended <- final
	}()
	go fakeRunner(t, d)
	return d, ended
}

// fakeRunner is an executor that succeeds "true" tasks at once and
// reports the others killed when asked.
func fakeRunner(t *testing.T, d *Driver) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := wire.Dial(ctx, "tcp", d.Addr(), testSecret)
	if err != nil {
		t.Error(err)
		return
	}
	defer conn.Close()
	conn.Send(&wire.Envelope{Message: &wire.Envelope_Register{Register: &wire.Register{ExecutorId: "e1", Host: "h1", Cores: 2}}})
	for {
		m, err := conn.Recv()
		if err != nil {
			return
		}
		var sts []*wire.Status
		for _, l := range m.GetLaunchBatch().GetLaunches() {
			if strings.Join(l.GetArgv(), " ") == "true" {
				sts = append(sts, &wire.Status{StageId: l.GetStageId(), TaskIndex: l.GetTaskIndex(), Attempt: l.GetAttempt(), State: wire.Status_SUCCEEDED})
			}
		}
		if k := m.GetKill(); k != nil {
			sts = append(sts, &wire.Status{StageId: k.GetStageId(), TaskIndex: k.GetTaskIndex(), Attempt: k.GetAttempt(), State: wire.Status_KILLED, Reason: "killed"})
		}
		if len(sts) > 0 {
			conn.Send(&wire.Envelope{Message: &wire.Envelope_StatusBatch{StatusBatch: &wire.StatusBatch{Statuses: sts}}})
		}
	}
}

// request sends one session request and returns the answers until the
// session closes the connection.
func request(t *testing.T, d *Driver, secret []byte, m *wire.Envelope) ([]*wire.Envelope, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := wire.Dial(ctx, "tcp", d.cfg.Clients.Addr().String(), secret)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if err := conn.Send(m); err != nil {
		return nil, err
	}
	var out []*wire.Envelope
	for {
		r, err := conn.Recv()
		if err != nil {
			return out, nil
		}
		out = append(out, r)
	}
}

func submit(spec string, follow bool) *wire.Envelope {
	return &wire.Envelope{Message: &wire.Envelope_SubmitJob{SubmitJob: &wire.SubmitJob{Spec: []byte(spec), Source: "test.yaml", Follow: follow, DefaultPool: "default"}}}
}

// A session takes jobs from its clients until one stops it: a followed
// job's client gets its progress and its end; jobs are listed with their
// pool and state; cancelling one touches no other; stopping cancels what
// runs and ends the session successfully.
func TestSessionServesItsClients(t *testing.T) {
	d, ended := startSession(t)

	// A followed job: accepted, then updates, the last one its end.
	out, err := request(t, d, sessionSecret, submit("name: quick\nstages:\n  - {name: s, tasks: 3, command: [\"true\"]}\n", true))
	if err != nil || len(out) < 2 || out[0].GetJobAccepted() == nil {
		t.Fatalf("followed submit: %v, %v", out, err)
	}
	last := out[len(out)-1].GetJobUpdate()
	if !last.GetEnded() || last.GetJob().GetState() != "SUCCEEDED" || last.GetJob().GetSucceeded() != 3 || last.GetAttempts() != 3 {
		t.Errorf("the followed job's last update: %v", last)
	}

	// A job left running, in a pool the session says it made up.
	out, _ = request(t, d, sessionSecret, submit("name: long\npool: adhoc\nstages:\n  - {name: s, tasks: 1, command: [\"sleep\", \"60\"]}\n", false))
	if len(out) != 1 || out[0].GetJobAccepted().GetJobId() != 1 || strings.Join(out[0].GetJobAccepted().GetNotices(), "") != `pool "adhoc": created with Spark's defaults` {
		t.Fatalf("submit: %v", out)
	}
	// Refused: a job no executor can hold, and a spec that does not parse.
	for _, c := range []struct{ spec, want string }{
		{"name: wide\nstages:\n  - {name: s, tasks: 1, command: x, resources: {cpus: 3}}\n", `stage "s": a task needs 3 cpus`},
		{"name: bad\nstages: 7\n", "test.yaml"},
	} {
		out, _ = request(t, d, sessionSecret, submit(c.spec, false))
		if len(out) != 1 || !strings.Contains(out[0].GetRejected().GetReason(), c.want) {
			t.Errorf("submitting %q: %v, want it refused with %q", c.spec, out, c.want)
		}
	}

	out, _ = request(t, d, sessionSecret, &wire.Envelope{Message: &wire.Envelope_ListJobs{ListJobs: &wire.ListJobs{}}})
	if got := jobStates(out); got != "quick/default/SUCCEEDED long/adhoc/RUNNING" {
		t.Errorf("jobs: %s", got)
	}
	out, _ = request(t, d, sessionSecret, &wire.Envelope{Message: &wire.Envelope_CancelJob{CancelJob: &wire.CancelJob{JobId: 0, Reason: "late"}}})
	if len(out) != 1 || !strings.Contains(out[0].GetRejected().GetReason(), "has already ended: SUCCEEDED") {
		t.Errorf("cancelling an ended job: %v", out)
	}

	// Nobody without the session's secret gets an answer, nor does an
	// executor's secret do.
	for _, secret := range [][]byte{testSecret, []byte("0000000000000000000000000000000")} {
		if out, err := request(t, d, secret, &wire.Envelope{Message: &wire.Envelope_StopSession{StopSession: &wire.StopSession{}}}); err == nil && len(out) > 0 {
			t.Errorf("a client with the wrong secret got %v", out)
		}
	}

	// The tracking page lists the session's jobs, its pools in
	// fair-share order, and its executors.
	rec := httptest.NewRecorder()
	trackingPage(d).ServeHTTP(rec, httptest.NewRequest("GET", "/status.json", nil))
	var st core.Status
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
		t.Fatalf("status.json: %v\n%s", err, rec.Body.String())
	}
	var jobs, pools []string
	for _, j := range st.Jobs {
		jobs = append(jobs, fmt.Sprintf("%s/%s/%s/%d", j.Name, j.Pool, j.State, j.Running))
	}
	for _, p := range st.Pools {
		pools = append(pools, fmt.Sprintf("%s:%d/%d", p.Name, p.Running, p.Weight))
	}
	if got := strings.Join(jobs, " "); got != "quick/default/SUCCEEDED/0 long/adhoc/RUNNING/1" {
		t.Errorf("status.json jobs: %s", got)
	}
	// default is served first: no task running, against adhoc's one.
	if got := strings.Join(pools, " "); got != "default:0/1 adhoc:1/1" || len(st.Executors) != 1 {
		t.Errorf("status.json pools %s, executors %+v", got, st.Executors)
	}
	rec = httptest.NewRecorder()
	trackingPage(d).ServeHTTP(rec, httptest.NewRequest("GET", "/status.txt", nil))
	for _, want := range []string{"pools 2, in fair-share order\n  default (FIFO, weight 1, minShare 0): 0 running", "  1 long in adhoc: RUNNING, 0/1 tasks, 1 running"} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("the tracking page has no %q:\n%s", want, rec.Body.String())
		}
	}

	// Cancelling one running job leaves the other running. Its client
	// follows it to the end the session's stop gives it.
	followed := make(chan []*wire.Envelope, 1)
	go func() {
		out, _ := request(t, d, sessionSecret, submit("name: other\nstages:\n  - {name: s, tasks: 1, command: [\"sleep\", \"60\"]}\n", true))
		followed <- out
	}()
	out, _ = request(t, d, sessionSecret, &wire.Envelope{Message: &wire.Envelope_CancelJob{CancelJob: &wire.CancelJob{JobId: 1, Reason: "not needed"}}})
	if got := jobStates(out); got != "long/adhoc/RUNNING" && got != "long/adhoc/CANCELLED" {
		t.Errorf("cancel answered %v", out)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		out, _ = request(t, d, sessionSecret, &wire.Envelope{Message: &wire.Envelope_ListJobs{ListJobs: &wire.ListJobs{}}})
		got := jobStates(out)
		if got == "quick/default/SUCCEEDED long/adhoc/CANCELLED other/default/RUNNING" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after cancelling long: %s", got)
		}
	}

	out, _ = request(t, d, sessionSecret, &wire.Envelope{Message: &wire.Envelope_StopSession{StopSession: &wire.StopSession{Reason: "done for the day"}}})
	if len(out) != 1 || out[0].GetJobList() == nil {
		t.Fatalf("stop: %v", out)
	}
	select {
	case final := <-ended:
		if !final.Succeeded || final.Diagnostics != "stopped: done for the day" {
			t.Errorf("the session ended %+v", final)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stopped session did not end")
	}
	out = <-followed
	if last := out[len(out)-1].GetJobUpdate(); out[0].GetJobAccepted().GetJobId() != 2 || !last.GetEnded() || last.GetJob().GetState() != "CANCELLED" {
		t.Errorf("the follower of a job the stop cancelled got %v", out)
	}
	if _, err := request(t, d, sessionSecret, &wire.Envelope{Message: &wire.Envelope_ListJobs{ListJobs: &wire.ListJobs{}}}); err == nil {
		t.Error("the ended session still answers")
	} else if !errors.Is(err, context.DeadlineExceeded) && !strings.Contains(err.Error(), "refused") {
		t.Logf("after the end: %v", err)
	}
}

func jobStates(out []*wire.Envelope) string {
	var s []string
	for _, m := range out {
		for _, j := range m.GetJobList().GetJobs() {
			s = append(s, j.GetName()+"/"+j.GetPool()+"/"+j.GetState())
		}
	}
	return strings.Join(s, " ")
}

// A session's driver keeps no ended job's summary (with its executors and
// cut files): Run's summary is a single job's, and a session has none.
func TestSessionRunKeepsNoJobsSummary(t *testing.T) {
	d, err := New(Config{Core: core.Config{AppID: "local-session", Session: true, Profiles: []scheduler.Profile{{Cores: 2}}},
		Executors: listen(t, testSecret), Clients: listen(t, sessionSecret)})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan core.Summary, 1)
	go func() {
		sum, _, _ := d.Run(context.Background(), nil, nil)
		done <- sum
	}()
	go fakeRunner(t, d)
	out, err := request(t, d, sessionSecret, submit("name: quick\nstages:\n  - {name: s, tasks: 3, command: [\"true\"]}\n", true))
	if err != nil || out[len(out)-1].GetJobUpdate().GetJob().GetState() != "SUCCEEDED" {
		t.Fatalf("followed submit: %v, %v", out, err)
	}
	request(t, d, sessionSecret, &wire.Envelope{Message: &wire.Envelope_StopSession{StopSession: &wire.StopSession{Reason: "done"}}})
	select {
	case sum := <-done:
		if sum.Job != "" || sum.Executors != nil {
			t.Errorf("the session's Run returned job %q's summary, %d executors", sum.Job, len(sum.Executors))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the session did not stop")
	}
}
