package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// An outcome is what a mutant's tests did.
type outcome int

const (
	passed outcome = iota // the mutant survived
	failed                // killed
	broken                // the tests did not run: no build, no package, refused flags
)

// tester runs go test with args in dir, the directory of a module.
type tester func(dir string, timeout time.Duration, args []string) outcome

func goTest(dir string, timeout time.Duration, args []string) outcome {
	full := []string{"test", "-count=1", "-json"}
	if timeout > 0 {
		full = append(full, "-timeout", timeout.String())
	}
	cmd := exec.Command("go", append(full, args...)...)
	cmd.Dir = dir
	events, err := cmd.Output()
	return judge(events, err)
}

// tally counts the mutants' outcomes.
type tally struct{ killed, survived, broken int }

// runAll applies each mutant in turn, runs its tests and puts the file
// back, reporting each to w. A mutant whose text is not in its file
// exactly once stops the pass (the list no longer matches the code), and
// so does stop saying so.
func runAll(w io.Writer, root string, timeout time.Duration, mutants []mutant, test tester, stop func() bool) (t tally, err error) {
	for i, m := range mutants {
		if stop() {
			return t, fmt.Errorf("interrupted after %d of %d mutants", i, len(mutants))
		}
		got, err := runOne(root, timeout, m, test)
		if err != nil {
			return t, err
		}
		fate := "SURVIVED"
		switch got {
		case failed:
			fate = "killed"
			t.killed++
		case broken:
			fate = "BROKEN: it did not build, or its tests did not run"
			t.broken++
		default:
			t.survived++
		}
		fmt.Fprintf(w, "%3d/%d %s: %q -> %q (go test %s): %s\n", i+1, len(mutants), m.file, m.from, m.to, strings.Join(m.test, " "), fate)
	}
	return t, nil
}

// runOne applies m, runs its tests and restores the file, even when the
// tests cannot run.
func runOne(root string, timeout time.Duration, m mutant, test tester) (got outcome, err error) {
	path := filepath.Join(root, m.file)
	orig, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", m.where, err)
	}
	if n := strings.Count(string(orig), m.from); n != 1 {
		return 0, fmt.Errorf("%s: %q occurs %d times in %s, want once", m.where, m.from, n, m.file)
	}
	info, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	mutated := strings.Replace(string(orig), m.from, m.to, 1)
	if err := os.WriteFile(path, []byte(mutated), info.Mode()); err != nil {
		return 0, err
	}
	defer func() {
		if rerr := os.WriteFile(path, orig, info.Mode()); rerr != nil && err == nil {
			err = fmt.Errorf("putting %s back: %w", m.file, rerr)
		}
	}()
	mod := moduleOf(root, m.file)
	return test(filepath.Join(root, mod), timeout, inModule(root, mod, m.test)), nil
}
