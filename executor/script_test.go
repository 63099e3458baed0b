package executor

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestDiscoveryScriptSuccess(t *testing.T) {
	s := script(t, `echo "probing" >&2; printf '{"name": "gpu", "addresses": ["0", "GPU-5e6f"], "vendor": "nvidia.com"}\n'`)
	got, err := runDiscoveryScript(s, gpuResource, 0, envOf())
	if err != nil || !slices.Equal(got, []string{"0", "GPU-5e6f"}) {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestDiscoveryScriptFailures(t *testing.T) {
	cases := []struct {
		name string
		body string
		want []string
	}{
		{"exit status", `echo "nvidia-smi: driver not loaded" >&2; exit 3`, []string{"exit status 3", `stderr: "nvidia-smi: driver not loaded"`}},
		{"killed", `kill -KILL $$`, []string{"killed by SIGKILL"}},
		{"garbage", `echo 'GPU 0: Tesla'; echo oops >&2`, []string{"want JSON", `stdout: "GPU 0: Tesla"`, `stderr: "oops"`}},
		{"wrong resource", `echo '{"name":"fpga","addresses":["0"]}'`, []string{`reported resource "fpga", want "gpu"`}},
		{"no addresses", `echo '{"name":"gpu","adresses":["0"]}'`, []string{`no "addresses" field`}},
		{"no output", `true`, []string{"want JSON", "unexpected end of JSON input"}},
		{"two objects", `echo '{"name":"gpu","addresses":[]}{}'`, []string{"want JSON"}},
		{"numbers", `echo '{"name":"gpu","addresses":[0,1]}'`, []string{"want JSON", "cannot unmarshal number"}},
		{"bad address", `echo '{"name":"gpu","addresses":["0,1"]}'`, []string{`"0,1" holds a comma`}},
		{"too much output", `head -c 2000000 /dev/zero`, []string{"more than 1048576 bytes"}},
		{"stderr clipped", `head -c 5000 /dev/zero | tr '\0' x >&2; exit 1`, []string{`stderr: "` + strings.Repeat("x", maxQuotedStderr) + `…"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := script(t, c.body)
			got, err := runDiscoveryScript(s, gpuResource, 0, envOf())
			if got != nil {
				t.Errorf("got %q with an error", got)
			}
			wantErr(t, err, append([]string{"discovery script " + s}, c.want...)...)
		})
	}
}

func TestDiscoveryScriptMissingOrNotExecutable(t *testing.T) {
	_, err := runDiscoveryScript("/nonexistent/getGpus.sh", gpuResource, 0, envOf())
	wantErr(t, err, "discovery script /nonexistent/getGpus.sh", "no such file or directory")
	plain := writeFile(t, "getGpus.sh", "#!/bin/sh\n", 0o644)
	_, err = runDiscoveryScript(plain, gpuResource, 0, envOf())
	wantErr(t, err, "discovery script "+plain, "permission denied")
}

// A bare name is the file in the working directory, where --files puts it.
func TestDiscoveryScriptBareNameIsInWorkingDirectory(t *testing.T) {
	s := gpuScript(t, `"3"`)
	t.Chdir(filepath.Dir(s))
	got, err := runDiscoveryScript(filepath.Base(s), gpuResource, 0, envOf("PATH=/nonexistent"))
	if err != nil || !slices.Equal(got, []string{"3"}) {
		t.Fatalf("got %q, %v", got, err)
	}
}

// The script runs with the environment a task would get: no SPINDLE_*.
func TestDiscoveryScriptEnvironment(t *testing.T) {
	s := script(t, `[ -n "$SPINDLE_SECRET_TOKEN" ] && { echo leaked >&2; exit 1; }
[ "$HOME" = /home/spindle ] || { echo "no HOME" >&2; exit 1; }
echo '{"name":"gpu","addresses":["0"]}'`)
	got, err := runDiscoveryScript(s, gpuResource, 0, envOf("SPINDLE_SECRET_TOKEN=hunter2", "HOME=/home/spindle"))
	if err != nil || !slices.Equal(got, []string{"0"}) {
		t.Fatalf("got %q, %v", got, err)
	}
}

// A script that hangs is killed at the timeout, with what it started.
func TestDiscoveryScriptTimeout(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	s := script(t, `echo "waiting for the driver" >&2; sleep 1000 & echo $! > `+pidFile+`; wait`)
	start := time.Now()
	_, err := runDiscoveryScript(s, gpuResource, 300*time.Millisecond, envOf())
	wantErr(t, err, "discovery script "+s, "timed out after 300ms", `stderr: "waiting for the driver"`)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v to time out", d)
	}
	data, rerr := os.ReadFile(pidFile)
	if rerr != nil {
		t.Fatal(rerr)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	waitGone(t, []int{pid})
}

// A script that leaves a background child holding its output still has
// that output read, and the child is ended with it.
func TestDiscoveryScriptBackgroundChildIsEnded(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	s := script(t, `sleep 1000 & echo $! > `+pidFile+`; echo '{"name":"gpu","addresses":["0","1"]}'`)
	got, err := runDiscoveryScript(s, gpuResource, 0, envOf())
	if err != nil || !slices.Equal(got, []string{"0", "1"}) {
		t.Fatalf("got %q, %v", got, err)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	waitGone(t, []int{pid})
}
