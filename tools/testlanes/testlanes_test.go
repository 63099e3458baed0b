package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// events writes go test -json lines for a shell's printf.
func events(lines ...string) string {
	return "printf '%s\\n' " + "'" + strings.Join(lines, "' '") + "'"
}

const (
	runA  = `{"Action":"run","Package":"p","Test":"TestA"}`
	outA  = `{"Action":"output","Package":"p","Test":"TestA","Output":"a says hi\n"}`
	passA = `{"Action":"pass","Package":"p","Test":"TestA","Elapsed":2.5}`
	runB  = `{"Action":"run","Package":"p","Test":"TestB"}`
	subB  = `{"Action":"output","Package":"p","Test":"TestB/one","Output":"b/one broke\n"}`
	mark  = `{"Action":"output","Package":"p","Test":"TestB","Output":"    x.go:1: started the cluster in 40s\n"}`
	failS = `{"Action":"fail","Package":"p","Test":"TestB/one","Elapsed":1}`
	failB = `{"Action":"fail","Package":"p","Test":"TestB","Elapsed":7}`
	skipC = `{"Action":"skip","Package":"p","Test":"TestC","Elapsed":0}`
)

func run(t *testing.T, ls ...Lane) (string, bool) {
	t.Helper()
	var progress, summary strings.Builder
	out := t.TempDir()
	results := Run(ls, t.TempDir(), out, &progress, "started the")
	ok := Summarize(&summary, results, 2, "started the")
	return progress.String() + summary.String(), ok
}

func TestPassingLanesPassAndSayWhereTheTimeWent(t *testing.T) {
	out, ok := run(t, Lane{"one", events(runA, outA, passA)}, Lane{"two", events(runB, mark, `{"Action":"pass","Package":"p","Test":"TestB","Elapsed":9}`, skipC)})
	if !ok {
		t.Fatalf("want a pass:\n%s", out)
	}
	for _, want := range []string{"PASS one | TestA (2.5s)", "PASS two | TestB (9s)", "SKIP two | TestC (0s)",
		"slowest 2 tests:\n       9s  two | TestB\n     2.5s  one | TestA\n", "two | x.go:1: started the cluster in 40s"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "a says hi") {
		t.Errorf("a passing test's output is shown:\n%s", out)
	}
}

func TestAFailedTestFailsWithItsAndItsSubtestsOutput(t *testing.T) {
	out, ok := run(t, Lane{"one", events(runA, passA)}, Lane{"two", events(runB, subB, failS, failB)})
	if ok {
		t.Fatalf("a failed test passed:\n%s", out)
	}
	if !strings.Contains(out, "--- FAIL two | TestB (7s)\nb/one broke\n") || !strings.Contains(out, "0 passed, 1 failed, 0 skipped  FAIL") {
		t.Errorf("the failure is not shown with its subtest's output:\n%s", out)
	}
}

// A failed test's own assertion lines come again after its output, which
// may end in pages of logs: the end of the summary says why it failed.
func TestAFailedTestsOwnWordsComeAgainLast(t *testing.T) {
	why := `{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:12: want 3 runs, got 4\n"}`
	logs := `{"Action":"output","Package":"p","Test":"TestB","Output":"    cluster.go:201: tail of the logs:\n        2026 INFO a log line\n"}`
	out, _ := run(t, Lane{"two", events(runB, why, logs, failB)})
	want := "2026 INFO a log line\n  its own words, again:\n  b_test.go:12: want 3 runs, got 4\n"
	if !strings.Contains(out, want) {
		t.Errorf("the summary does not end the failure with the test's own lines %q:\n%s", want, out)
	}
	if strings.Count(out, "cluster.go:201") != 1 {
		t.Errorf("a helper's line outside a test file is repeated:\n%s", out)
	}
}

func TestALaneWhoseCommandFailsFails(t *testing.T) {
	out, ok := run(t, Lane{"one", events(runA, passA) + "; echo compiler says no >&2; exit 3"})
	if ok || !strings.Contains(out, "exit status 3") || !strings.Contains(out, "compiler says no") {
		t.Fatalf("want the lane failed with its status and stderr:\n%s", out)
	}
}

func TestALaneThatRanNoTestFails(t *testing.T) {
	out, ok := run(t, Lane{"one", events(runA, passA)}, Lane{"empty", "true"})
	if ok || !strings.Contains(out, "it ran no test") {
		t.Fatalf("want a lane with no test failed:\n%s", out)
	}
}

func TestAPackageFailingOutsideItsTestsFails(t *testing.T) {
	out, ok := run(t, Lane{"one", events(runA, passA,
		`{"Action":"output","Package":"p","Output":"panic: test timed out after 30m\n"}`,
		`{"Action":"fail","Package":"p","Elapsed":1800}`)})
	if ok || !strings.Contains(out, "--- FAIL one | p:\npanic: test timed out") {
		t.Fatalf("want the package's failure shown:\n%s", out)
	}
	out, ok = run(t, Lane{"build", events(`{"ImportPath":"q [q.test]","Action":"build-output","Output":"q.go:1: undefined: x\n"}`,
		`{"ImportPath":"q [q.test]","Action":"build-fail"}`, runA, passA)})
	if ok || !strings.Contains(out, "q.go:1: undefined: x") {
		t.Fatalf("want the build failure shown:\n%s", out)
	}
}

func TestEachLanesEventsAndStderrAreKept(t *testing.T) {
	out := t.TempDir()
	var w strings.Builder
	Run([]Lane{{"3.5.0 own clusters", events(runA, passA) + "; echo noted >&2"}}, t.TempDir(), out, &w, "")
	got, err := os.ReadFile(filepath.Join(out, "3.5.0-own-clusters.json"))
	if err != nil || string(got) != runA+"\n"+passA+"\n" {
		t.Errorf("events kept: %q, %v", got, err)
	}
	if got, err := os.ReadFile(filepath.Join(out, "3.5.0-own-clusters.stderr")); err != nil || string(got) != "noted\n" {
		t.Errorf("stderr kept: %q, %v", got, err)
	}
}

func TestLanesRunAtOnce(t *testing.T) {
	// Each lane waits for the other's file: run one after the other,
	// neither would end (the test's deadline would end it).
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	wait := func(mine, theirs string) string {
		return "touch " + mine + "; while [ ! -e " + theirs + " ]; do sleep 0.01; done; " + events(runA, passA)
	}
	if out, ok := run(t, Lane{"a", wait(a, b)}, Lane{"b", wait(b, a)}); !ok {
		t.Fatalf("want both lanes passed:\n%s", out)
	}
}

func TestALaneFlagIsNameEqualsCommand(t *testing.T) {
	var ls lanes
	if err := ls.Set("3.5.0 = go test -json -run 'A=B' ./x"); err != nil || ls[0].Name != "3.5.0" || ls[0].Command != " go test -json -run 'A=B' ./x" {
		t.Errorf("got %+v, %v", ls, err)
	}
	for _, bad := range []string{"no equals", "=cmd", "name=", " = "} {
		if err := ls.Set(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// A lane's stderr shown in the summary is its last bytes, at most the
// cap, however it was written.
func TestTailKeepsTheLastBytes(t *testing.T) {
	var b strings.Builder
	kept := &tail{b: &b, most: 4}
	for _, w := range []string{"ab", "cde", "f"} {
		kept.Write([]byte(w))
	}
	if b.String() != "cdef" {
		t.Errorf("kept %q, want the last 4 bytes, \"cdef\"", b.String())
	}
}
