package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildSpindle builds the real binary the way the Makefile does, with the
// version stamped through -ldflags.
func buildSpindle(t *testing.T, version string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "spindle")
	cmd := exec.Command("go", "build", "-o", bin,
		"-ldflags", "-X github.com/spindle-yarn/spindle/deploy.version="+version, ".")
	cmd.Env = append(cmd.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func TestBinaryVersion(t *testing.T) {
	bin := buildSpindle(t, "v0.0.0-stamped")
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("spindle version: %v\n%s", err, out)
	}
	if !strings.HasPrefix(string(out), "spindle v0.0.0-stamped (go") {
		t.Fatalf("spindle version printed %q, want the stamped version", out)
	}
}

func TestBinaryFailsOnUnknownCommand(t *testing.T) {
	bin := buildSpindle(t, "dev")
	out, err := exec.Command(bin, "frobnicate").CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() == 0 {
		t.Fatalf("spindle frobnicate: err = %v, want a non-zero exit\n%s", err, out)
	}
	if !strings.Contains(string(out), "frobnicate") {
		t.Fatalf("spindle frobnicate printed %q, want the unknown command named", out)
	}
}

func TestBinaryVersionFlagPrintsTheVersion(t *testing.T) {
	bin := buildSpindle(t, "v0.0.0-stamped")
	flag, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("spindle --version: %v\n%s", err, flag)
	}
	cmd, _ := exec.Command(bin, "version").CombinedOutput()
	if string(flag) != string(cmd) {
		t.Fatalf("spindle --version printed %q, spindle version %q: want the same", flag, cmd)
	}
}

func TestBinaryMistypedCommandOrFlagFailsWithADidYouMean(t *testing.T) {
	bin := buildSpindle(t, "dev")
	for _, args := range [][]string{{"sumbit"}, {"submit", "--mastr", "yarn", "job.yaml"}} {
		var stdout, stderr strings.Builder
		cmd := exec.Command(bin, args...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() == 0 {
			t.Errorf("spindle %v: err = %v, want a non-zero exit", args, err)
		}
		if stdout.Len() > 0 || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), "did you mean") {
			t.Errorf("spindle %v: stdout %q, stderr %q; want one line on stderr with a did-you-mean", args, stdout.String(), stderr.String())
		}
	}
}
