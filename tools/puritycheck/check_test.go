package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/tools/internal/srccheck/srctest"
)

// findings checks one file of testdata and returns its findings as
// "line: what" strings.
func findings(t *testing.T, name string) []string {
	t.Helper()
	f, err := CheckPath("testdata", name)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range f {
		if x.Pos.Filename != name {
			t.Errorf("finding in %s, want %s", x.Pos.Filename, name)
		}
	}
	return srctest.Lines(f)
}

func TestCleanFileHasNoFindings(t *testing.T) {
	srctest.ExpectPrefixes(t, findings(t, "clean.go"))
	srctest.ExpectPrefixes(t, findings(t, "sub/pure.go"))
}

// Every clock read and timer is found through an aliased import, a value
// taken (var clock = t.Now) as well as a call.
func TestClockReads(t *testing.T) {
	srctest.ExpectPrefixes(t, findings(t, "clock.go"),
		"clock.go:7: time.Now", "clock.go:9: time.Sleep", "clock.go:11: time.Now",
		"clock.go:14: time.After", "clock.go:15: time.Tick", "clock.go:16: time.NewTimer",
		"clock.go:17: time.NewTicker", "clock.go:18: time.AfterFunc", "clock.go:19: time.Since",
		"clock.go:20: time.Until")
}

func TestImports(t *testing.T) {
	var want []string
	for line, path := range map[int]string{4: "log", 5: "log/slog", 6: "net", 7: "net/http", 8: "os", 9: "os/exec", 10: "os/signal",
		11: "sync", 12: "sync/atomic", 14: "github.com/colinmarc/hdfs/v2", 15: "github.com/sirupsen/logrus",
		16: "github.com/spindle-yarn/spindle/yarnpb", 17: "google.golang.org/grpc"} {
		want = append(want, "imports.go:"+itoa(line)+": imports "+path+":")
	}
	got := findings(t, "imports.go")
	srctest.ExpectPrefixes(t, sorted(got), sorted(want)...)
}

func TestGoStatement(t *testing.T) {
	srctest.ExpectPrefixes(t, findings(t, "goroutine.go"), "goroutine.go:4: a go statement")
}

func TestDotImportOfTime(t *testing.T) {
	srctest.ExpectPrefixes(t, findings(t, "dot.go"), `dot.go:3: imports "time" with a dot`)
}

// A directory is walked with its subdirectories, but not its test files
// or testdata.
func TestWalkSkipsTestsAndTestdata(t *testing.T) {
	f, err := CheckPath("testdata", "sub")
	if err != nil || len(f) != 0 {
		t.Fatalf("findings %v, error %v; want none", f, err)
	}
	all, err := CheckPath(".", "testdata")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for _, x := range all {
		files[filepath.Base(x.Pos.Filename)] = true
	}
	if len(files) != 4 || files["clean.go"] || files["impure_test.go"] {
		t.Fatalf("findings in %v, want clock.go, imports.go, goroutine.go and dot.go", files)
	}
}

func TestUnparsableFileIsAnError(t *testing.T) {
	if _, err := CheckFile("bad.go", []byte("package core\nfunc {")); err == nil || !strings.Contains(err.Error(), "bad.go:2") {
		t.Fatalf("error %v, want one naming bad.go:2", err)
	}
}
