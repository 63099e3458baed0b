package executor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// DefaultScriptTimeout bounds a discovery script that was given no
// timeout: nvidia-smi answers in well under a second, but a wedged driver
// can make it hang forever, and an executor that hangs at start-up holds
// its container without ever registering.
const DefaultScriptTimeout = 60 * time.Second

// maxQuotedStderr is how much of a failing script's stderr (and of bad
// stdout) an error quotes.
const maxQuotedStderr = 1024

// runDiscoveryScript runs a Spark-compatible discovery script and returns
// the addresses it printed (format (a)). Like Spark it runs the script with
// no arguments; a path without a slash is taken relative to the working
// directory (where --files puts shipped scripts), as Spark's existence
// check does, not looked up in PATH. The script gets the allow-listed
// environment only (see BaseEnvironment) and its own process group, so a
// timeout kills whatever it started (nvidia-smi) as well.
func runDiscoveryScript(script string, timeout time.Duration, env func(string) (string, bool)) ([]string, error) {
	if timeout <= 0 {
		timeout = DefaultScriptTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	path := script
	if !strings.Contains(path, "/") {
		path = "./" + path
	}
	var stdout, stderr boundedBuffer
	stdout.max, stderr.max = maxResourcesJSON, maxQuotedStderr
	cmd := exec.CommandContext(ctx, path)
	cmd.Env = BaseEnvironment(env)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// A grandchild that escaped the group could hold the pipes open; do
	// not wait for it beyond this.
	cmd.WaitDelay = time.Second

	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case err != nil && ctx.Err() == context.DeadlineExceeded:
		return nil, fmt.Errorf("discovery script %s timed out after %v%s", script, timeout, stderr.quote("stderr"))
	case errors.As(err, &exitErr):
		return nil, fmt.Errorf("discovery script %s failed: %v%s", script, exitErr, stderr.quote("stderr"))
	case err != nil:
		return nil, fmt.Errorf("discovery script %s: %w", script, err)
	case stdout.truncated:
		return nil, fmt.Errorf("discovery script %s printed more than %d bytes%s", script, maxResourcesJSON, stderr.quote("stderr"))
	}
	addrs, err := parseDiscoveryOutput(stdout.buf.Bytes())
	if err != nil {
		out := boundedBuffer{max: maxQuotedStderr}
		out.Write(stdout.buf.Bytes())
		return nil, fmt.Errorf("discovery script %s: %w%s%s", script, err, out.quote("stdout"), stderr.quote("stderr"))
	}
	if err := checkAddresses("discovery script "+script, addrs); err != nil {
		return nil, err
	}
	return addrs, nil
}

// boundedBuffer keeps the first max bytes written to it and notes whether
// more came, so a chatty or hostile script cannot make us allocate without
// bound. Writes never fail: the script must not get EPIPE because we
// stopped listening. (The bytes.Buffer is a field, not embedded: embedded,
// its ReadFrom would let io.Copy bypass Write and the bound.)
type boundedBuffer struct {
	buf       bytes.Buffer
	max       int
	truncated bool
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); len(p) > room {
		b.buf.Write(p[:max(room, 0)])
		b.truncated = true
		return len(p), nil
	}
	return b.buf.Write(p)
}

// quote renders the buffer for an error message: "; stderr: "…"" or
// nothing when it is empty.
func (b *boundedBuffer) quote(what string) string {
	s := strings.TrimSpace(b.buf.String())
	if s == "" {
		return ""
	}
	if b.truncated {
		s += "…"
	}
	return fmt.Sprintf("; %s: %q", what, s)
}
