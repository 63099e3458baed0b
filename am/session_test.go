package am_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/executor/wire"
)

// A session takes jobs from its clients until one stops it: a followed
// job's client gets its progress and its end; jobs are listed with their
// pool and state; cancelling one touches no other; stopping cancels what
// runs and ends the session successfully.
func TestSessionServesItsClients(t *testing.T) {
	d := startSession(t)
	c := d.Client()

	// A followed job: accepted, then updates, the last one its end.
	_, updates := c.SubmitFollow(t, "name: quick\nstages:\n  - {name: s, tasks: 3, command: [\"true\"]}\n")
	if last := updates[len(updates)-1]; last.GetJob().GetState() != "SUCCEEDED" || last.GetJob().GetSucceeded() != 3 || last.GetAttempts() != 3 {
		t.Errorf("the followed job's last update: %v", last)
	}

	// A job left running, in a pool the session says it made up.
	out, _ := c.Request(amtest.SubmitJob("name: long\npool: adhoc\nstages:\n  - {name: s, tasks: 1, command: [\"sleep\", \"60\"]}\n", false))
	if len(out) != 1 || out[0].GetJobAccepted().GetJobId() != 1 || strings.Join(out[0].GetJobAccepted().GetNotices(), "") != `pool "adhoc": created with Spark's defaults` {
		t.Fatalf("submit: %v", out)
	}
	// Refused: a job no executor can hold, and a spec that does not parse.
	for _, r := range []struct{ spec, want string }{
		{"name: wide\nstages:\n  - {name: s, tasks: 1, command: x, resources: {cpus: 3}}\n", `stage "s": a task needs 3 cpus`},
		{"name: bad\nstages: 7\n", "test.yaml"},
	} {
		out, _ = c.Request(amtest.SubmitJob(r.spec, false))
		if len(out) != 1 || !strings.Contains(out[0].GetRejected().GetReason(), r.want) {
			t.Errorf("submitting %q: %v, want it refused with %q", r.spec, out, r.want)
		}
	}

	if got := jobStates(c.Jobs(t)); got != "quick/default/SUCCEEDED long/adhoc/RUNNING" {
		t.Errorf("jobs: %s", got)
	}
	out, _ = c.Request(amtest.CancelJob(0, "late"))
	if len(out) != 1 || !strings.Contains(out[0].GetRejected().GetReason(), "has already ended: SUCCEEDED") {
		t.Errorf("cancelling an ended job: %v", out)
	}

	// Nobody without the session's secret gets an answer, nor does an
	// executor's secret do.
	for _, secret := range [][]byte{amtest.ExecutorSecret, []byte("0000000000000000000000000000000")} {
		if out, err := d.ClientWithSecret(secret).Request(amtest.StopSession("")); err == nil && len(out) > 0 {
			t.Errorf("a client with the wrong secret got %v", out)
		}
	}

	checkTrackingPage(t, d)

	// Cancelling one running job leaves the other running. Its client
	// follows it to the end the session's stop gives it.
	followed := make(chan []*wire.Envelope, 1)
	go func() {
		out, _ := c.Request(amtest.SubmitJob("name: other\nstages:\n  - {name: s, tasks: 1, command: [\"sleep\", \"60\"]}\n", true))
		followed <- out
	}()
	if got := c.Cancel(t, 1, "not needed"); got.GetName() != "long" || (got.GetState() != "RUNNING" && got.GetState() != "CANCELLED") {
		t.Errorf("cancel answered %v", got)
	}
	const after = "quick/default/SUCCEEDED long/adhoc/CANCELLED other/default/RUNNING"
	d.AwaitStatus(t, "long cancelled, other running", func(st core.Status) bool { return statusJobStates(st) == after })
	if got := jobStates(c.Jobs(t)); got != after {
		t.Errorf("after cancelling long: %s", got)
	}

	if jobs := c.Stop(t, "done for the day"); len(jobs) != 3 {
		t.Fatalf("stop answered %v", jobs)
	}
	if final := d.Wait(t).Final; !final.Succeeded || final.Diagnostics != "stopped: done for the day" {
		t.Errorf("the session ended %+v", final)
	}
	out = <-followed
	if last := out[len(out)-1].GetJobUpdate(); out[0].GetJobAccepted().GetJobId() != 2 || !last.GetEnded() || last.GetJob().GetState() != "CANCELLED" {
		t.Errorf("the follower of a job the stop cancelled got %v", out)
	}
	if out, err := c.Request(amtest.ListJobs()); err == nil {
		t.Errorf("the ended session still answers: %v", out)
	}
}

// checkTrackingPage checks that the tracking page lists the session's
// jobs (quick done, long running), its pools in fair-share order, and
// its executors.
func checkTrackingPage(t *testing.T, d *amtest.Driver) {
	t.Helper()
	rec := httptest.NewRecorder()
	d.TrackingPage().ServeHTTP(rec, httptest.NewRequest("GET", "/status.json", nil))
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
	d.TrackingPage().ServeHTTP(rec, httptest.NewRequest("GET", "/status.txt", nil))
	for _, want := range []string{"pools 2, in fair-share order\n  default (FIFO, weight 1, minShare 0): 0 running", "  1 long in adhoc: RUNNING, 0/1 tasks, 1 running"} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("the tracking page has no %q:\n%s", want, rec.Body.String())
		}
	}
}

// A session's driver keeps no ended job's summary (with its executors and
// cut files): Run's summary is a single job's, and a session has none.
func TestSessionRunKeepsNoJobsSummary(t *testing.T) {
	d := startSession(t)
	c := d.Client()
	if _, updates := c.SubmitFollow(t, "name: quick\nstages:\n  - {name: s, tasks: 3, command: [\"true\"]}\n"); updates[len(updates)-1].GetJob().GetState() != "SUCCEEDED" {
		t.Fatalf("the followed job ended %v", updates[len(updates)-1])
	}
	c.Stop(t, "done")
	if sum := d.Wait(t).Summary; sum.Job != "" || sum.Executors != nil {
		t.Errorf("the session's Run returned job %q's summary, %d executors", sum.Job, len(sum.Executors))
	}
}

// A client follows a job already submitted (as one does whose session's
// AM was replaced) to its end; a job the session never had is refused.
func TestSessionFollowsAJobAlreadySubmitted(t *testing.T) {
	c := startSession(t).Client()
	id := c.Submit(t, "name: quick\nstages:\n  - {name: s, tasks: 2, command: [\"true\"]}\n")
	updates := c.Follow(t, id)
	if last := updates[len(updates)-1]; last.GetJob().GetId() != id || last.GetJob().GetState() != "SUCCEEDED" || last.GetJob().GetSucceeded() != 2 {
		t.Errorf("following job %d: its last update %v", id, last)
	}
	out, err := c.Request(&wire.Envelope{Message: &wire.Envelope_FollowJob{FollowJob: &wire.FollowJob{JobId: 9}}})
	if err != nil || len(out) != 1 || !strings.Contains(out[0].GetRejected().GetReason(), "the session has no job 9") {
		t.Errorf("following a job the session never had: %v, %v", out, err)
	}
}
