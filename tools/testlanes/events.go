package main

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json's TestEvent).
type event struct {
	Time       time.Time
	Action     string
	Package    string
	Test       string
	Elapsed    float64 // seconds, on pass, fail and skip
	Output     string
	ImportPath string // build-output and build-fail events
}

// Test is how one top-level test of a lane ended.
type Test struct {
	Lane, Package, Name string
	Action              string // pass, fail or skip
	Elapsed             time.Duration
	// Output is everything the test and its subtests printed; kept only
	// for a failed test.
	Output string
}

// reader turns a lane's event stream into ended tests, keeping the
// output of tests still running (and of the package itself, for a
// package that fails outside any test: a timeout, a build error).
type reader struct {
	lane     string
	running  map[string]*strings.Builder // package + "\x00" + top-level test
	packages map[string]*strings.Builder
	marked   []string
	mark     string
}

func newReader(lane, mark string) *reader {
	return &reader{lane: lane, mark: mark, running: map[string]*strings.Builder{}, packages: map[string]*strings.Builder{}}
}

// read consumes the stream, calling ended for each top-level test that
// ends and failed for each package (or build) that fails, and returns
// the stream's error, if any.
func (r *reader) read(in io.Reader, ended func(Test), failed func(pkg, output string)) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			// A line that is no event (go test's own complaint) belongs
			// to no test: keep it with the lane.
			r.pkgOutput("", sc.Text()+"\n")
			continue
		}
		r.step(e, ended, failed)
	}
	return sc.Err()
}

func (r *reader) step(e event, ended func(Test), failed func(pkg, output string)) {
	if e.ImportPath != "" { // the build of a package's test
		r.pkgOutput(e.ImportPath, e.Output)
		if e.Action == "build-fail" {
			failed(e.ImportPath, r.packages[e.ImportPath].String())
		}
		return
	}
	if r.mark != "" && strings.Contains(e.Output, r.mark) {
		r.marked = append(r.marked, strings.TrimSpace(e.Output))
	}
	top, _, sub := strings.Cut(e.Test, "/")
	if e.Test == "" {
		r.pkgOutput(e.Package, e.Output)
		if e.Action == "fail" {
			failed(e.Package, r.packages[e.Package].String())
		}
		return
	}
	key := e.Package + "\x00" + top
	b := r.running[key]
	if b == nil {
		b = &strings.Builder{}
		r.running[key] = b
	}
	b.WriteString(e.Output)
	if sub || (e.Action != "pass" && e.Action != "fail" && e.Action != "skip") {
		return
	}
	t := Test{Lane: r.lane, Package: e.Package, Name: top, Action: e.Action, Elapsed: time.Duration(e.Elapsed * float64(time.Second))}
	if e.Action == "fail" {
		t.Output = b.String()
	}
	delete(r.running, key)
	ended(t)
}

func (r *reader) pkgOutput(pkg, s string) {
	b := r.packages[pkg]
	if b == nil {
		b = &strings.Builder{}
		r.packages[pkg] = b
	}
	b.WriteString(s)
}
