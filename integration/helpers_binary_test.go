package integration

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// Helpers: the spindle binary, built once per test process, and running
// it: to its end, or in the background with its output collected.

// The binary is built once per test process: where it is, or why it
// did not build.
var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// spindleBinary is the spindle binary, built from this checkout once per
// test process.
func spindleBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "spindle-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "spindle")
		root := filepath.Dir(filepath.Dir(testcluster.Script()))
		out, err := exec.Command("go", "build", "-o", binPath, filepath.Join(root, "cmd", "spindle")).CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// runSpindle runs the spindle binary with args in env to its end, or
// until ctx is done, and returns what it printed, stdout and stderr
// together.
func runSpindle(ctx context.Context, t *testing.T, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.CommandContext(ctx, spindleBinary(t), args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// startSpindle starts the spindle binary with args in env, collecting
// what it prints, stdout and stderr together, as it comes.
func startSpindle(t *testing.T, env []string, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(spindleBinary(t), args...)
	cmd.Env = env
	buf := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = buf, buf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, buf
}

// submit runs the spindle binary with args, its TMPDIR the test's own.
func submit(t *testing.T, args ...string) (string, error) {
	t.Helper()
	return runSpindle(context.Background(), t, append(os.Environ(), "TMPDIR="+t.TempDir()), args...)
}

// spindleOn runs the spindle binary against cluster c, for at most three
// minutes: a submission that never ends is a failure, not a hung test.
func spindleOn(t *testing.T, c *testcluster.Cluster, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	return runSpindle(ctx, t, append(os.Environ(), "HADOOP_CONF_DIR="+c.ConfDir), args...)
}

// startOn starts the spindle binary against cluster c, collecting its
// output as it comes.
func startOn(t *testing.T, c *testcluster.Cluster, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	return startSpindle(t, append(os.Environ(), "HADOOP_CONF_DIR="+c.ConfDir), args...)
}

// syncBuffer collects a process's output while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// exited waits for cmd to end within d, and says how long it took.
func exited(t *testing.T, cmd *exec.Cmd, d time.Duration) (time.Duration, error) {
	t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return time.Since(start), err
	case <-time.After(d):
		t.Fatalf("%v still running %v after the signal", cmd.Args, d)
		return 0, nil
	}
}

// waitExit waits for cmd to end, until ctx is done.
func waitExit(ctx context.Context, cmd *exec.Cmd) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		cmd.Process.Kill()
		<-done
		return ctx.Err()
	}
}
