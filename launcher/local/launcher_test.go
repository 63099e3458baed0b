package local

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/executor/tasklog"
)

// An executor's environment is the submitter's less its SPINDLE_*
// variables, then spindle.executorEnv, then the whole launch, which the
// executor reads back: its log is executor.log in its directory, rolled
// over by the launcher's settings.
func TestEnvironmentCarriesTheLaunch(t *testing.T) {
	l, err := New(Config{Binary: "/bin/true", DriverAddr: "127.0.0.1:4000", AppID: "local-1-abc", Secret: []byte("s"),
		Environ: []string{"PATH=/bin", "SPINDLE_EXECUTOR_ID=stale"}, ExecutorEnv: map[string]string{"MODEL": "m"}, TaskLogMaxBytes: 4096, LogLevel: "debug",
		LogMaxBytes: 8192, LogMaxFiles: 3, TaskLogs: tasklog.Policy{MaxJobs: 5, MaxBytes: 1 << 20}, GPUSampleInterval: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	env := l.environment(Executor{ID: "exec-1", Cores: 2, GPUs: []string{"1", "3"}}, "/tmp/app/exec-1")
	for _, kv := range []string{"PATH=/bin", "MODEL=m"} {
		if !slices.Contains(env, kv) {
			t.Errorf("environment %q lacks %s", env, kv)
		}
	}
	if slices.ContainsFunc(env, func(kv string) bool { return strings.HasSuffix(kv, "=stale") }) {
		t.Errorf("environment %q keeps the submitter's SPINDLE_EXECUTOR_ID", env)
	}
	got, err := executor.LaunchFromEnv(func(k string) (string, bool) {
		for _, kv := range env {
			if name, v, _ := strings.Cut(kv, "="); name == k {
				return v, true
			}
		}
		return "", false
	})
	want := executor.Launch{DriverAddress: "127.0.0.1:4000", AppID: "local-1-abc", ExecutorID: "exec-1", Cores: 2, GPUs: 2,
		GPUAddresses: []string{"1", "3"}, LogDir: "/tmp/app/exec-1", TaskLogMaxBytes: 4096, SecretFrom: "stdin", LogLevel: "debug",
		LogFile: "/tmp/app/exec-1/executor.log", LogMaxBytes: 8192, LogMaxFiles: 3, TaskLogs: tasklog.Policy{MaxJobs: 5, MaxBytes: 1 << 20},
		GPUSampleInterval: 2 * time.Second}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("the executor reads %+v, %v\nwant %+v", got, err, want)
	}
}

// The launcher points a started executor's output at its executor.log
// and keeps no copy open itself: the executor rolls that log over, and a
// copy held here would keep a rolled-away file's space for the
// executor's whole life.
func TestLauncherHoldsNoExecutorLogOpen(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake-executor")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho started\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := New(Config{Binary: fake, DriverAddr: "127.0.0.1:1", AppID: "local-1", Secret: []byte("s"), LogDir: dir, StopTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Stop()
	if _, err := l.Start(Executor{ID: "exec-1", Cores: 1}); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "exec-1", "executor.log")
	for deadline := time.Now().Add(10 * time.Second); readFile(t, log) != "started\n"; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("executor.log holds %q, want what the executor said", readFile(t, log))
		}
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fds {
		if target, _ := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); target == log {
			t.Errorf("the launcher holds %s open (fd %s)", log, fd.Name())
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}
