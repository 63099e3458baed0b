package executor

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/executor/contain"
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
// check does, not looked up in PATH. The script gets the environment a
// task would (InheritedEnvironment of environ). It runs contained (package
// contain): a background child it leaves, holding its output open, is
// ended when the script exits, so its output is read in full; at the
// timeout, the script and all it started are killed.
func runDiscoveryScript(script, resource string, timeout time.Duration, environ []string) ([]string, error) {
	if timeout <= 0 {
		timeout = DefaultScriptTimeout
	}
	path := script
	if !strings.Contains(path, "/") {
		path = "./" + path
	}
	var stdout, stderr boundedBuffer
	stdout.max, stderr.max = maxResourcesJSON, maxQuotedStderr
	p, err := contain.Start(contain.Spec{Argv: []string{path}, Env: InheritedEnvironment(environ), Stdout: &stdout, Stderr: &stderr,
		Grace: scriptGrace, Name: "discovery-script"})
	if err != nil {
		return nil, fmt.Errorf("discovery script %s: %w", script, err)
	}
	timer := time.AfterFunc(timeout, p.Stop)
	res := p.Wait()
	timedOut := !timer.Stop()
	switch {
	case timedOut:
		return nil, fmt.Errorf("discovery script %s timed out after %v%s", script, timeout, stderr.quote("stderr"))
	case res.Err != nil:
		return nil, fmt.Errorf("discovery script %s: %w", script, res.Err)
	case res.Signal != "":
		return nil, fmt.Errorf("discovery script %s failed: killed by %s%s", script, res.Signal, stderr.quote("stderr"))
	case res.ExitCode != 0:
		return nil, fmt.Errorf("discovery script %s failed: exit status %d%s", script, res.ExitCode, stderr.quote("stderr"))
	case stdout.truncated:
		return nil, fmt.Errorf("discovery script %s printed more than %d bytes%s", script, maxResourcesJSON, stderr.quote("stderr"))
	}
	addrs, err := parseDiscoveryOutput(stdout.buf.Bytes(), resource)
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

// scriptGrace is how long a script that timed out gets between SIGTERM
// and SIGKILL.
const scriptGrace = 500 * time.Millisecond

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
