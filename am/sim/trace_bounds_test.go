package sim

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/scheduler"
)

const header = "submit_s,job,stage,tasks,task_s,cpus,gpus\n"

func parse(trace string) error {
	_, err := ParseTrace(strings.NewReader(trace), "t.csv")
	return err
}

func wantErr(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want one containing %q", err, want)
	}
}

// rowOf is a valid row of exactly n bytes (less its newline): the job's
// name takes up the slack.
func rowOf(n int) string {
	const prefix, suffix = "0,", ",s,1,1,1,0"
	return prefix + strings.Repeat("j", n-len(prefix)-len(suffix)) + suffix
}

func TestRowLengthIsBounded(t *testing.T) {
	if err := parse(header + rowOf(maxRowBytes) + "\n"); err != nil {
		t.Fatalf("a row of exactly %d bytes: %v", maxRowBytes, err)
	}
	wantErr(t, parse(header+rowOf(maxRowBytes+1)+"\n"), fmt.Sprintf("t.csv:2: a row longer than %d bytes", maxRowBytes))
	// The last row needs no newline, and is held to the same bound.
	if err := parse(header + rowOf(maxRowBytes)); err != nil {
		t.Fatalf("a last row of exactly %d bytes: %v", maxRowBytes, err)
	}
	wantErr(t, parse(header+rowOf(maxRowBytes+1)), "t.csv:2: a row longer than")
	// A quoted field's newlines do not end its row: the row is bounded,
	// not each of its lines, and the error names the line it began on.
	half := strings.Repeat("j", maxRowBytes/2)
	wantErr(t, parse(header+"0,a,s,1,1,1,0\n"+`0,"`+half+"\n"+half+`",s,1,1,1,0`+"\n"), "t.csv:3: a row longer than")
	if err := parse(header + `0,"a` + "\n" + `b",s,1,1,1,0` + "\n" + rowOf(maxRowBytes) + "\n"); err != nil {
		t.Fatalf("a row after a quoted newline: %v", err)
	}
}

// blankLines is an io.Reader of n bytes: lines of blanks, which a trace
// may have between rows.
type blankLines struct{ n int64 }

var blankBlock = []byte(strings.Repeat(strings.Repeat(" ", 1023)+"\n", 64))

func (b *blankLines) Read(p []byte) (int, error) {
	if b.n == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(int64(len(p)), b.n)], blankBlock)
	b.n -= int64(n)
	return n, nil
}

// The whole trace is bounded too, so input without end is refused after
// a bounded read. Reading it through the CSV parser would take seconds;
// the parser's reader alone is measured at the bound, and its error
// reaches ParseTrace as the row bound's does.
func TestTraceSizeIsBounded(t *testing.T) {
	read := func(n int64) error {
		_, err := io.Copy(io.Discard, newBoundedTrace(&blankLines{n}))
		return err
	}
	if err := read(maxTraceBytes); err != nil {
		t.Fatalf("a trace of exactly %d bytes: %v", maxTraceBytes, err)
	}
	err := read(maxTraceBytes + 1)
	wantErr(t, err, fmt.Sprintf("the trace is longer than %d bytes", maxTraceBytes))
	if le, ok := err.(*traceLimitError); !ok || le.line != maxTraceBytes/1024+1 {
		t.Fatalf("err = %#v, want the line it stopped on, %d", err, maxTraceBytes/1024+1)
	}
}

// zeros is /dev/zero, counting what was read from it. It ends after
// 64 MiB, a thousand rows' worth, so that a reader without the bound
// fails this test rather than hang it.
type zeros struct{ read int }

func (z *zeros) Read(p []byte) (int, error) {
	if z.read >= 64<<20 {
		return 0, io.EOF
	}
	p = p[:min(len(p), 64<<20-z.read)]
	clear(p)
	z.read += len(p)
	return len(p), nil
}

// The report: `spindle sim --trace /dev/zero` grew to 5.8 GB. An endless
// line is refused after one row's worth of reading, in little memory.
func TestEndlessInputIsRefusedEarly(t *testing.T) {
	for _, prefix := range []string{"", header} {
		z := &zeros{}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := ParseTrace(io.MultiReader(strings.NewReader(prefix), z), "/dev/zero")
		runtime.ReadMemStats(&after)
		wantErr(t, err, "a row longer than")
		if z.read > 2*maxRowBytes {
			t.Errorf("read %d bytes of an endless line, want at most %d", z.read, 2*maxRowBytes)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
			t.Errorf("allocated %d bytes reading an endless line, want under 1 MiB", alloc)
		}
	}
}

func TestTimesAreBounded(t *testing.T) {
	next := func(v float64) string { return strconv.FormatFloat(math.Nextafter(v, math.Inf(1)), 'g', -1, 64) }
	row := func(submit, taskS string) string { return header + submit + ",a,s,1," + taskS + ",1,0\n" }
	if err := parse(row(strconv.Itoa(maxSubmitS), strconv.Itoa(maxTaskS))); err != nil {
		t.Fatalf("submit_s and task_s at their bounds: %v", err)
	}
	wantErr(t, parse(row(next(maxSubmitS), "1")), `t.csv:2:1: submit_s "`+next(maxSubmitS)+`": more than 315360000 s (10 years)`)
	wantErr(t, parse(row("0", next(maxTaskS))), `t.csv:2:9: task_s "`+next(maxTaskS)+`": more than 31536000 s (a year)`)
	// What overflowed time.Duration into a negative makespan.
	wantErr(t, parse(row("1e10", "1")), `submit_s "1e10": more than`)
	wantErr(t, parse(row("0", "1e300")), `task_s "1e300": more than`)

	// Work: 250 tasks of a year is the bound; one more second passes it.
	var b strings.Builder
	b.WriteString(header)
	for i := range maxTraceWorkS / maxTaskS {
		fmt.Fprintf(&b, "0,j%d,s,1,%d,1,0\n", i, maxTaskS)
	}
	if err := parse(b.String()); err != nil {
		t.Fatalf("work of exactly %d task-seconds: %v", maxTraceWorkS, err)
	}
	b.WriteString("0,last,s,1,1,1,0\n")
	wantErr(t, parse(b.String()), fmt.Sprintf("t.csv:252: the trace's work, tasks × task_s over its rows, passes %d task-seconds", maxTraceWorkS))
}

// Run holds jobs and options to the same bounds, whoever built them: no
// time it adds can wrap.
func TestRunRefusesTimesThatCouldWrap(t *testing.T) {
	jobs := func(submitS, taskS float64) []TraceJob {
		return []TraceJob{{Name: "a", SubmitS: submitS, Stages: []StageRow{{Stage: "s", Tasks: 1, TaskS: taskS, CPUs: 1}}}}
	}
	opts := func(f func(*Options)) Options {
		o := options(0, false)
		f(&o)
		return o
	}
	for _, c := range []struct {
		name string
		jobs []TraceJob
		opts Options
		want string // "" where the bound itself is accepted
	}{
		{"submit at the bound", jobs(maxSubmitS, 1), opts(func(o *Options) { o.Horizon = MaxDuration }), ""},
		{"submit past it", jobs(math.Nextafter(maxSubmitS, math.Inf(1)), 1), options(0, false), `job "a": submitted at`},
		{"task at the bound", jobs(0, maxTaskS), opts(func(o *Options) { o.Horizon = MaxDuration }), ""},
		{"task past it", jobs(0, math.Nextafter(maxTaskS, math.Inf(1))), options(0, false), `job "a" stage "s": tasks of`},
		{"horizon at the bound", jobs(0, 1), opts(func(o *Options) { o.Horizon = MaxDuration }), ""},
		{"horizon past it", jobs(0, 1), opts(func(o *Options) { o.Horizon = MaxDuration + 1 }), "horizon 876000h0m0.000000001s: want 0 to 876000h0m0s"},
		// Accepted, it runs to its horizon, which it passes as it should.
		{"delay at the bound", jobs(0, 1), opts(func(o *Options) { o.StartupDelay = MaxDuration }), "simulation passed its horizon, 168h0m0s after the last submission"},
		{"delay past it", jobs(0, 1), opts(func(o *Options) { o.AllocDelay = MaxDuration + 1 }), "allocation delay 876000h0m0.000000001s"},
		{"negative delay", jobs(0, 1), opts(func(o *Options) { o.StartupDelay = -time.Second }), "start-up delay -1s"},
	} {
		res, err := Run(c.jobs, c.opts)
		switch {
		case c.want != "":
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case res.MakespanS < c.jobs[0].SubmitS || res.Jobs != 1:
			t.Errorf("%s: %+v: a makespan before the submission", c.name, res)
		}
	}
}

func TestRunRefusesMoreExecutorsThanItModels(t *testing.T) {
	jobs, err := ParseTrace(strings.NewReader(header+"0,a,s,1,1,1,0\n"), "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	o := options(0, false)
	o.Capacity = 0
	static := func(n int) { o.Core.Containers = &core.ContainerConfig{Initial: map[scheduler.ProfileID]int{0: n}} }
	static(MaxExecutors)
	if _, err := Run(jobs, o); err != nil {
		t.Fatalf("%d static executors: %v", MaxExecutors, err)
	}
	static(MaxExecutors + 1)
	if _, err := Run(jobs, o); err == nil || !strings.Contains(err.Error(), "10001 containers, more than the 10000 it models") {
		t.Fatalf("%d static executors: err = %v", MaxExecutors+1, err)
	}
}
