package deploy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
)

const (
	testApp = "application_1700000000000_0001"
	testURL = "http://rm.example:8088/proxy/application_1700000000000_0001/"
)

// t0 is the test clock's first reading.
var t0 = time.UnixMilli(1_700_000_100_000)

// rep is a report in state st with progress p; url and diag are left out
// when empty, start when zero.
func rep(st hadoopyarn.YarnApplicationStateProto, final hadoopyarn.FinalApplicationStatusProto, p float32, url, diag string, start time.Time) *hadoopyarn.ApplicationReportProto {
	r := &hadoopyarn.ApplicationReportProto{
		YarnApplicationState:   st.Enum(),
		FinalApplicationStatus: final.Enum(),
		Progress:               proto.Float32(p),
	}
	if url != "" {
		r.TrackingUrl = proto.String(url)
	}
	if diag != "" {
		r.Diagnostics = proto.String(diag)
	}
	if !start.IsZero() {
		r.StartTime = proto.Int64(start.UnixMilli())
	}
	return r
}

const (
	accepted  = hadoopyarn.YarnApplicationStateProto_ACCEPTED
	running   = hadoopyarn.YarnApplicationStateProto_RUNNING
	finished  = hadoopyarn.YarnApplicationStateProto_FINISHED
	failed    = hadoopyarn.YarnApplicationStateProto_FAILED
	killed    = hadoopyarn.YarnApplicationStateProto_KILLED
	undefined = hadoopyarn.FinalApplicationStatusProto_APP_UNDEFINED
	succeeded = hadoopyarn.FinalApplicationStatusProto_APP_SUCCEEDED
	appFailed = hadoopyarn.FinalApplicationStatusProto_APP_FAILED
	appKilled = hadoopyarn.FinalApplicationStatusProto_APP_KILLED
)

// script answers with reports in turn. Asked for more, it fails the test
// (once) and answers that the application was killed, so follow stops;
// a follow that goes on regardless gets its context's error once the
// test has given up on it (followWithin).
func script(t *testing.T, reports ...*hadoopyarn.ApplicationReportProto) reportFunc {
	t.Helper()
	i := 0
	return func(ctx context.Context) (*hadoopyarn.ApplicationReportProto, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if i >= len(reports) {
			if i == len(reports) {
				t.Errorf("report called %d times, after the script's end", i+1)
			}
			i++
			return rep(killed, appKilled, 0, "", "script ended", time.Time{}), nil
		}
		i++
		return reports[i-1], nil
	}
}

// ticking is a clock that advances a second at each reading, from t0.
func ticking() func() time.Time {
	now := t0.Add(-time.Second)
	return func() time.Time {
		now = now.Add(time.Second)
		return now
	}
}

// followDeadline bounds how long a test waits for follow to return. A
// follow that hangs (a report that never answers, a pause that never
// ends, a loop that never sees the end) then fails its own test, naming
// it, instead of stalling the package until go test's global timeout.
const followDeadline = 10 * time.Second

// errFollowHung is what followWithin returns for a follow past its limit.
var errFollowHung = errors.New("follow did not return")

// followWithin runs follow (run) on a goroutine of its own and returns
// what it returned, or errFollowHung once limit has passed; run's context
// is then cancelled, for a follow that still heeds it.
func followWithin(limit time.Duration, run func(ctx context.Context) error) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		return fmt.Errorf("%w within %v", errFollowHung, limit)
	}
}

// mustReturn is followWithin, failing t on a hang.
func mustReturn(t testing.TB, limit time.Duration, run func(ctx context.Context) error) error {
	t.Helper()
	err := followWithin(limit, run)
	if errors.Is(err, errFollowHung) {
		t.Fatalf("%v: it hangs", err)
	}
	return err
}

// followTest follows report with the clock ticking from t0 and no pause,
// failing t if follow does not return within followDeadline.
func followTest(t testing.TB, report reportFunc, terminal bool) (string, error) {
	t.Helper()
	return followTestWithin(t, followDeadline, report, terminal)
}

func followTestWithin(t testing.TB, limit time.Duration, report reportFunc, terminal bool) (string, error) {
	t.Helper()
	var out bytes.Buffer
	f := &follower{id: testApp, report: report, w: &out, terminal: terminal, interval: 0, now: ticking()}
	err := mustReturn(t, limit, f.run)
	return out.String(), err
}

// successScript is ACCEPTED, RUNNING at 25% and 50% (started 90s before
// following began), FINISHED SUCCEEDED.
func successScript(t *testing.T) reportFunc {
	start := t0.Add(-90 * time.Second)
	return script(t,
		rep(accepted, undefined, 0, "", "", time.Time{}),
		rep(running, undefined, 0.25, testURL, "", start),
		rep(running, undefined, 0.5, testURL, "", start),
		rep(finished, succeeded, 1, testURL, "", start),
	)
}

func TestFollowPlainPrintsStatesAndURL(t *testing.T) {
	var out bytes.Buffer
	// Through follow itself, as runYarn calls it.
	err := mustReturn(t, followDeadline, func(ctx context.Context) error {
		return follow(ctx, testApp, successScript(t), &out, false, 0, 0)
	})
	if err != nil {
		t.Fatalf("follow: %v", err)
	}
	want := testApp + " ACCEPTED\n" +
		testApp + " RUNNING\n" +
		"tracking URL: " + testURL + "\n" +
		testApp + " FINISHED\n"
	if out.String() != want {
		t.Errorf("output:\n%q\nwant:\n%q", out.String(), want)
	}
}

func TestFollowTerminalDrawsBar(t *testing.T) {
	out, err := followTest(t, successScript(t), true)
	if err != nil {
		t.Fatalf("follow: %v", err)
	}
	// The clock reads t0 when following begins and a second later at each
	// bar; the application started 90s before t0.
	want := testApp + " ACCEPTED\n" +
		testApp + " RUNNING\n" +
		"tracking URL: " + testURL + "\n" +
		"\r" + testApp + " RUNNING [=====               ]  25% 1m31s" +
		"\r" + testApp + " RUNNING [==========          ]  50% 1m32s" +
		"\n" +
		testApp + " FINISHED\n"
	if out != want {
		t.Errorf("output:\n%q\nwant:\n%q", out, want)
	}
	for _, s := range []string{"\r", " 25% ", " 50% "} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%q", s, out)
		}
	}
	if !strings.HasSuffix(out, "\n") {
		t.Errorf("output does not end its line:\n%q", out)
	}
}

func TestFollowTerminalElapsedWithoutStartTime(t *testing.T) {
	out, err := followTest(t, script(t,
		rep(running, undefined, 0.1, "", "", time.Time{}),
		rep(running, undefined, 0.1, "", "", time.Time{}),
		rep(finished, succeeded, 1, "", "", time.Time{}),
	), true)
	if err != nil {
		t.Fatalf("follow: %v", err)
	}
	// Counted from when following began.
	want := testApp + " RUNNING\n" +
		"\r" + testApp + " RUNNING [==                  ]  10% 1s" +
		"\r" + testApp + " RUNNING [==                  ]  10% 2s" +
		"\n" + testApp + " FINISHED\n"
	if out != want {
		t.Errorf("output:\n%q\nwant:\n%q", out, want)
	}
}

func TestFollowTerminalClearsBarForURL(t *testing.T) {
	out, err := followTest(t, script(t,
		rep(running, undefined, 0.1, "", "", t0),
		rep(running, undefined, 0.2, testURL, "", t0),
		rep(finished, succeeded, 1, testURL, "", t0),
	), true)
	if err != nil {
		t.Fatalf("follow: %v", err)
	}
	bar1 := testApp + " RUNNING [==                  ]  10% 1s"
	bar2 := testApp + " RUNNING [====                ]  20% 2s"
	want := testApp + " RUNNING\n" +
		"\r" + bar1 +
		"\r" + strings.Repeat(" ", len(bar1)) + "\r" + "tracking URL: " + testURL + "\n" +
		"\r" + bar2 +
		"\n" + testApp + " FINISHED\n"
	if out != want {
		t.Errorf("output:\n%q\nwant:\n%q", out, want)
	}
}

func TestFollowTerminalBlanksLongerLine(t *testing.T) {
	// The start time moves (the RM's report changed): the second line is
	// shorter and must cover what is left of the first.
	out, err := followTest(t, script(t,
		rep(running, undefined, 0.5, "", "", t0.Add(-10*time.Hour)),
		rep(running, undefined, 0.5, "", "", t0),
		rep(finished, succeeded, 1, "", "", t0),
	), true)
	if err != nil {
		t.Fatalf("follow: %v", err)
	}
	bar1 := testApp + " RUNNING [==========          ]  50% 10h0m1s"
	bar2 := testApp + " RUNNING [==========          ]  50% 2s"
	want := testApp + " RUNNING\n" +
		"\r" + bar1 +
		"\r" + bar2 + strings.Repeat(" ", len(bar1)-len(bar2)) +
		"\n" + testApp + " FINISHED\n"
	if out != want {
		t.Errorf("output:\n%q\nwant:\n%q", out, want)
	}
}

func TestFollowEndedUnsuccessfully(t *testing.T) {
	for _, tc := range []struct {
		state   hadoopyarn.YarnApplicationStateProto
		final   hadoopyarn.FinalApplicationStatusProto
		diag    string
		wantErr string
	}{
		{failed, appFailed, "AM container exited with exitCode: 1",
			testApp + " ended FAILED (FAILED): AM container exited with exitCode: 1"},
		{killed, appKilled, "Application killed by user.",
			testApp + " ended KILLED (KILLED): Application killed by user."},
		// The AM unregistered with a failure: FINISHED is not success.
		{finished, appFailed, "job failed: task 3 failed 4 times",
			testApp + " ended FINISHED (FAILED): job failed: task 3 failed 4 times"},
	} {
		for _, terminal := range []bool{false, true} {
			out, err := followTest(t, script(t,
				rep(running, undefined, 0.5, "", "", t0),
				rep(tc.state, tc.final, 0.5, "", tc.diag, t0),
			), terminal)
			if err == nil {
				t.Errorf("%s/%s terminal=%v: nil error", tc.state, tc.final, terminal)
				continue
			}
			if err.Error() != tc.wantErr {
				t.Errorf("%s/%s terminal=%v: error %q, want %q", tc.state, tc.final, terminal, err, tc.wantErr)
			}
			if !strings.Contains(err.Error(), tc.diag) {
				t.Errorf("error %q lacks the diagnostics %q", err, tc.diag)
			}
			last := testApp + " " + tc.state.String() + "\n"
			if !strings.HasSuffix(out, last) {
				t.Errorf("%s/%s terminal=%v: output does not end with %q:\n%q", tc.state, tc.final, terminal, last, out)
			}
			if !terminal && out != testApp+" RUNNING\n"+last {
				t.Errorf("%s/%s: output %q", tc.state, tc.final, out)
			}
		}
	}
}

func TestFollowReturnsReportError(t *testing.T) {
	boom := errors.New("connection refused")
	for _, terminal := range []bool{false, true} {
		calls := 0
		out, err := followTest(t, func(ctx context.Context) (*hadoopyarn.ApplicationReportProto, error) {
			calls++
			switch calls {
			case 1:
				return rep(running, undefined, 0.5, "", "", t0), nil
			case 2:
				return nil, boom
			}
			// Only a follow that went on after the error gets here.
			return rep(finished, succeeded, 1, "", "", t0), nil
		}, terminal)
		if !errors.Is(err, boom) {
			t.Errorf("terminal=%v: error %v, want %v", terminal, err, boom)
		}
		if calls != 2 {
			t.Errorf("terminal=%v: report called %d times after an error, want 2", terminal, calls)
		}
		if !strings.HasPrefix(out, testApp+" RUNNING\n") || !strings.HasSuffix(out, "\n") {
			t.Errorf("terminal=%v: output %q", terminal, out)
		}
		if terminal != strings.Contains(out, "\r") {
			t.Errorf("terminal=%v: output %q", terminal, out)
		}
	}
}

// A ResourceManager restarting is out of reach for a while: follow asks
// again until it answers, saying so, rather than giving up on an
// application that runs on; a second outage has the whole wait again.
func TestFollowRidesOutAnRMOutOfReach(t *testing.T) {
	refused := &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}
	calls := 0
	var out bytes.Buffer
	// Each report takes a second of the ticking clock: two outages of
	// four tries each, under a wait of six seconds but not together.
	f := &follower{id: testApp, w: &out, rmWait: 6 * time.Second, now: ticking(), report: func(context.Context) (*hadoopyarn.ApplicationReportProto, error) {
		calls++
		switch {
		case calls == 1 || calls == 6:
			return rep(running, undefined, 0.5, "", "", t0), nil
		case calls <= 10:
			return nil, refused
		}
		return rep(finished, succeeded, 1, "", "", t0), nil
	}}
	if err := mustReturn(t, followDeadline, f.run); err != nil {
		t.Fatalf("follow gave up on an RM out of reach twice, each time within its wait: %v\n%s", err, &out)
	}
	outage := "the ResourceManager is out of reach (dial: connection refused): asking again for up to 6s\n" +
		"the ResourceManager answers again, after 4s\n"
	if got, want := out.String(), testApp+" RUNNING\n"+outage+outage+testApp+" FINISHED\n"; got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}

// Out of reach for its whole wait, or raising an exception, the RM is
// given up on.
func TestFollowGivesUpOnAnRMOutOfReachPastItsWait(t *testing.T) {
	refused := &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}
	calls := 0
	f := &follower{id: testApp, w: io.Discard, rmWait: 5 * time.Second, now: ticking(), report: func(context.Context) (*hadoopyarn.ApplicationReportProto, error) {
		calls++
		return nil, refused
	}}
	err := mustReturn(t, followDeadline, f.run)
	if !errors.Is(err, syscall.ECONNREFUSED) || !strings.Contains(err.Error(), "out of reach for 5s") || calls != 6 {
		t.Errorf("after %d reports: %v; want the refusal, out of reach for 5s, after 6", calls, err)
	}
	var out bytes.Buffer
	calls = 0
	f = &follower{id: testApp, w: &out, now: ticking(), report: func(context.Context) (*hadoopyarn.ApplicationReportProto, error) {
		calls++
		return nil, refused
	}}
	if err := mustReturn(t, followDeadline, f.run); err != error(refused) || calls != 1 || out.Len() != 0 {
		t.Errorf("with no wait: %v after %d reports, printing %q; want the refusal itself at once, quietly", err, calls, &out)
	}
	raised := &ipc.RemoteError{Class: "org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException"}
	calls = 0
	f = &follower{id: testApp, w: io.Discard, rmWait: time.Minute, now: ticking(), report: func(context.Context) (*hadoopyarn.ApplicationReportProto, error) {
		calls++
		return nil, raised
	}}
	if err := mustReturn(t, followDeadline, f.run); !errors.Is(err, raised) || calls != 1 {
		t.Errorf("an exception the RM raised: %v after %d reports; want it at once", err, calls)
	}
}

func TestFollowStopsWithContext(t *testing.T) {
	var out bytes.Buffer
	err := mustReturn(t, followDeadline, func(ctx context.Context) error {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		return follow(ctx, testApp, func(context.Context) (*hadoopyarn.ApplicationReportProto, error) {
			cancel() // while follow is yet to pause for an hour
			return rep(running, undefined, 0.5, "", "", time.Time{}), nil
		}, &out, true, time.Hour, 0)
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want %v", err, context.Canceled)
	}
	if s := out.String(); !strings.Contains(s, " 50% ") || !strings.HasSuffix(s, "\n") {
		t.Errorf("output %q: want the bar, its line ended", s)
	}
}

func TestFollowClampsProgress(t *testing.T) {
	out, err := followTest(t, script(t,
		rep(running, undefined, float32(math.NaN()), "", "", t0),
		rep(running, undefined, 2, "", "", t0),
		rep(running, undefined, -1, "", "", t0),
		rep(running, undefined, float32(math.Inf(1)), "", "", t0),
		rep(running, undefined, float32(math.Inf(-1)), "", "", t0),
		rep(finished, succeeded, 1, "", "", t0),
	), true)
	if err != nil {
		t.Fatalf("follow: %v", err)
	}
	empty, full := "["+strings.Repeat(" ", barWidth)+"]   0%", "["+strings.Repeat("=", barWidth)+"] 100%"
	want := testApp + " RUNNING\n" +
		"\r" + testApp + " RUNNING " + empty + " 1s" +
		"\r" + testApp + " RUNNING " + full + " 2s" +
		"\r" + testApp + " RUNNING " + empty + " 3s" +
		"\r" + testApp + " RUNNING " + full + " 4s" +
		"\r" + testApp + " RUNNING " + empty + " 5s" +
		"\n" + testApp + " FINISHED\n"
	if out != want {
		t.Errorf("output:\n%q\nwant:\n%q", out, want)
	}
}

func TestBarLine(t *testing.T) {
	for _, tc := range []struct {
		progress float32
		elapsed  time.Duration
		want     string
	}{
		{0, 0, "[                    ]   0% 0s"},
		{0.29, time.Second, "[=====               ]  29% 1s"}, // 0.29 is 0.28999… as a float32
		{0.999, 1500 * time.Millisecond, "[=================== ]  99% 2s"},
		{1, time.Hour + 2*time.Minute + 3*time.Second, "[====================] 100% 1h2m3s"},
		{0.5, -5 * time.Second, "[==========          ]  50% 0s"}, // the RM's clock ahead of ours
		{float32(math.NaN()), 0, "[                    ]   0% 0s"},
		{-0.5, 0, "[                    ]   0% 0s"},
		{1.5, 0, "[====================] 100% 0s"},
		{math.MaxFloat32, 0, "[====================] 100% 0s"},
		{float32(math.Inf(1)), 0, "[====================] 100% 0s"},
		{float32(math.Inf(-1)), 0, "[                    ]   0% 0s"},
	} {
		got := barLine(testApp, "RUNNING", tc.progress, tc.elapsed)
		if want := testApp + " RUNNING " + tc.want; got != want {
			t.Errorf("barLine(%v, %v) = %q, want %q", tc.progress, tc.elapsed, got, want)
		}
	}
	// Redrawing with \r needs a line that does not wrap on 80 columns.
	if l := barLine("application_1700000000000_10000", "RUNNING", 1, 99*time.Hour+59*time.Minute+59*time.Second); len(l) >= 80 {
		t.Errorf("bar line of %d characters: %q", len(l), l)
	}
}

func TestIsTerminal(t *testing.T) {
	if isTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is a terminal")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a regular file is a terminal")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if isTerminal(w) {
		t.Error("a pipe is a terminal")
	}
}

// hangRecorder is a test that records a Fatalf and ends the goroutine
// that called it, as testing.T does.
type hangRecorder struct {
	testing.TB
	fatal string
}

func (r *hangRecorder) Helper() {}

func (r *hangRecorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// A follow test whose follow hangs fails on a deadline of its own, with a
// message that says so, rather than hanging the package; a follow that
// returns in time is let through with its result.
func TestFollowTestsFailWhenFollowHangs(t *testing.T) {
	never := make(chan struct{})
	defer close(never) // lets the hung follow's goroutine go
	hang := func(context.Context) (*hadoopyarn.ApplicationReportProto, error) {
		<-never // heeds no context either
		return nil, errors.New("released")
	}
	r := &hangRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err := followTestWithin(r, 50*time.Millisecond, hang, false)
		r.fatal = fmt.Sprintf("no failure: follow returned %v", err) // unless Fatalf ended the goroutine
	}()
	select {
	case <-done:
	case <-time.After(followDeadline):
		t.Fatal("the follow test hung past its own deadline")
	}
	if want := "follow did not return within 50ms: it hangs"; r.fatal != want {
		t.Errorf("the hung follow test failed with %q, want %q", r.fatal, want)
	}

	boom := errors.New("boom")
	if err := followWithin(followDeadline, func(context.Context) error { return boom }); err != boom {
		t.Errorf("a follow that returned: %v, want %v", err, boom)
	}
}
