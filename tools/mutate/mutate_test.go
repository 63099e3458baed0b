package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadMutants(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.txt")
	writeFile(t, path, "# two mutants\nmutant am/core/asks.go\n- if a >= b {\n+ if a > b {\ntest -run TestX ./am/core/\n\nmutant x/y.go\n- keep()\n+\n")
	ms, err := readMutants(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 {
		t.Fatalf("%d mutants, want 2: %+v", len(ms), ms)
	}
	if m := ms[0]; m.file != "am/core/asks.go" || m.from != "if a >= b {" || m.to != "if a > b {" || strings.Join(m.test, " ") != "-run TestX ./am/core/" || m.where != path+":2" {
		t.Errorf("first: %+v", m)
	}
	if m := ms[1]; m.from != "keep()" || m.to != "" || strings.Join(m.test, " ") != "./x/" {
		t.Errorf("second, removing a line in the file's package by default: %+v", m)
	}
}

func TestReadMutantsRefusesWithTheLine(t *testing.T) {
	for text, want := range map[string]string{
		"- a\n":                           ":1: \"- a\" before the first mutant line",
		"mutant a.go\n- x\n+ y\nfrom z\n": ":4: \"from z\": want a mutant, -, + or test line",
		"mutant a.go\n+ y\n":              ":1: the mutant of a.go has no - line",
		"mutant a.go\n- y\n+ y\n":         ":1: the mutant of a.go changes nothing",
		"mutant a.go\n- y\nmutant\n":      ":3: mutant names no file",
		"# nothing\n":                     "no mutant",
		"mutant a.go\n- x\nmutant b.go\n": ":3: the mutant of b.go has no - line",
	} {
		path := filepath.Join(t.TempDir(), "m.txt")
		writeFile(t, path, text)
		_, err := readMutants(path)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

// A mutant is killed when its tests fail and survives when they pass;
// the tests see the mutated file, and the file is put back after each.
func TestRunAllAppliesEachAndPutsItBack(t *testing.T) {
	root := t.TempDir()
	const code = "package p\n\nfunc f(a, b int) bool { return a >= b }\n"
	writeFile(t, filepath.Join(root, "p/p.go"), code)
	ms := []mutant{
		{file: "p/p.go", from: "a >= b", to: "a > b", test: []string{"./p/"}},
		{file: "p/p.go", from: "a >= b", to: "b >= a", test: []string{"./p/"}},
	}
	var seen []string
	test := func(dir string, _ time.Duration, args []string) outcome {
		b, _ := os.ReadFile(filepath.Join(dir, "p/p.go"))
		seen = append(seen, string(b))
		if strings.Contains(string(b), "b >= a") {
			return passed // the tests miss the second
		}
		return failed
	}
	var out strings.Builder
	got, err := runAll(&out, root, 0, ms, test, func() bool { return false })
	if err != nil || got != (tally{killed: 1, survived: 1}) {
		t.Fatalf("%+v, %v; want 1 killed, 1 survived\n%s", got, err, out.String())
	}
	if len(seen) != 2 || !strings.Contains(seen[0], "a > b") || !strings.Contains(seen[1], "b >= a") {
		t.Errorf("the tests saw %q, want each mutant in turn", seen)
	}
	if !strings.Contains(out.String(), "): killed\n") || !strings.Contains(out.String(), "): SURVIVED\n") {
		t.Errorf("report:\n%s", out.String())
	}
	if b, _ := os.ReadFile(filepath.Join(root, "p/p.go")); string(b) != code {
		t.Errorf("the file after the pass:\n%s", b)
	}
}

// A mutant whose text is not in its file exactly once stops the pass with
// its line in the list; an interrupt stops it before the next mutant.
func TestRunAllStops(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "p.go"), "x x y")
	never := func(string, time.Duration, []string) outcome { t.Error("tests ran"); return passed }
	for from, want := range map[string]string{"x": "occurs 2 times", "z": "occurs 0 times"} {
		_, err := runAll(&strings.Builder{}, root, 0, []mutant{{where: "m.txt:7", file: "p.go", from: from, to: "w"}}, never, func() bool { return false })
		if err == nil || !strings.Contains(err.Error(), "m.txt:7") || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want m.txt:7 and %q", from, err, want)
		}
	}
	_, err := runAll(&strings.Builder{}, root, 0, []mutant{{file: "p.go", from: "y", to: "w"}}, never, func() bool { return true })
	if err == nil || !strings.Contains(err.Error(), "interrupted after 0 of 1") {
		t.Errorf("interrupted: %v", err)
	}
}

// A mutant's tests run in the module that holds its file, the paths
// among their arguments taken from the root to that module.
func TestRunAllTestsInTheFilesModule(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "go.mod"), "module m\n")
	writeFile(t, filepath.Join(root, "p/p.go"), "a")
	writeFile(t, filepath.Join(root, "tools/go.mod"), "module m/tools\n")
	writeFile(t, filepath.Join(root, "tools/lint/x/x.go"), "b")
	writeFile(t, filepath.Join(root, "am/a.go"), "")
	ms := []mutant{
		{file: "p/p.go", from: "a", to: "c", test: []string{"-run", "TestP", "./p/"}},
		{file: "tools/lint/x/x.go", from: "b", to: "c", test: []string{"./tools/lint/x/"}},
		{file: "tools/lint/x/x.go", from: "b", to: "c", test: []string{"-run", "./T", "./tools/...", ".", "./am/"}},
	}
	var ran []string
	test := func(dir string, _ time.Duration, args []string) outcome {
		rel, _ := filepath.Rel(root, dir)
		ran = append(ran, rel+": "+strings.Join(args, " "))
		return failed
	}
	if _, err := runAll(&strings.Builder{}, root, 0, ms, test, func() bool { return false }); err != nil {
		t.Fatal(err)
	}
	want := []string{".: -run TestP ./p/", "tools: ./lint/x", "tools: -run ./T ./... ./.. ./../am"}
	if strings.Join(ran, "\n") != strings.Join(want, "\n") {
		t.Errorf("go test ran as\n%s\nwant\n%s", strings.Join(ran, "\n"), strings.Join(want, "\n"))
	}
}

// The real go test: a mutant the package's test notices is killed (a
// test failing, or the package's test binary dying in one), one it does
// not survives; one that does not compile, names no package, or whose
// tests never run (a -run that is no regexp) is neither; and the module
// is as it was.
func TestGoTestKillsAndSpares(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "go.mod"), "module m\n\ngo 1.26\n")
	const code = "package p\n\nfunc Max(a, b int) int {\n\tif a >= b {\n\t\treturn a\n\t}\n\treturn b\n}\n"
	writeFile(t, filepath.Join(root, "p/p.go"), code)
	writeFile(t, filepath.Join(root, "p/p_test.go"), "package p\n\nimport \"testing\"\n\nfunc TestMax(t *testing.T) {\n\tif Max(1, 2) != 2 {\n\t\tt.Fatal()\n\t}\n}\n")
	ms := []mutant{
		{file: "p/p.go", from: "if a >= b {", to: "if a <= b {", test: []string{"./p/"}},            // Max(1,2) = 1: killed
		{file: "p/p.go", from: "if a >= b {", to: "if a > b {", test: []string{"./p/"}},             // equal inputs untested: survives
		{file: "p/p.go", from: "return b", to: "for {\n\t}", test: []string{"-timeout=2s", "./p/"}}, // hangs TestMax: killed
		{file: "p/p.go", from: "return b", to: "return c", test: []string{"./p/"}},                  // does not compile
		{file: "p/p.go", from: "return b", to: "return a", test: []string{"./q/"}},                  // no such package
		{file: "p/p.go", from: "return b", to: "return a", test: []string{"-run", "Test(", "./p/"}}, // runs no test
	}
	var out strings.Builder
	got, err := runAll(&out, root, time.Minute, ms, goTest, func() bool { return false })
	if err != nil || got != (tally{killed: 2, survived: 1, broken: 3}) {
		t.Errorf("%+v, %v; want 2 killed, 1 survived, 3 broken\n%s", got, err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for i, want := range []string{": killed", ": SURVIVED", ": killed", ": BROKEN", ": BROKEN", ": BROKEN"} {
		if i >= len(lines) || !strings.Contains(lines[i], want) {
			t.Errorf("mutant %d: want %q\n%s", i+1, want, out.String())
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "p/p.go")); string(b) != code {
		t.Errorf("p.go after the pass:\n%s", b)
	}
}
