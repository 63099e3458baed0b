package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// These tests hold minicluster.sh to its contract (docs/minicluster.md)
// with clusters of their own, one NodeManager each to keep them light.

func assertNothingRunsUnder(t *testing.T, dir string) {
	t.Helper()
	// The JVM may take a moment to be reaped after it exits.
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := testcluster.ProcessesUnder(dir)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes still running under %s: %v", dir, left)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func TestMiniclusterScriptLifecycle(t *testing.T) {
	dir := t.TempDir()
	env := scriptEnv(t)

	if out, err := script(t, env, "status", dir); err == nil {
		t.Fatalf("status before start exited 0, want non-zero:\n%s", out)
	}

	startOrFail(t, dir, env)
	for _, f := range []string{"conf/core-site.xml", "conf/yarn-site.xml", "conf/hdfs-site.xml",
		"logs/resourcemanager.log", "logs/nodemanager.log", "logs/namenode.log"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: want a non-empty file after start (err %v)", f, err)
		}
	}
	if out, err := script(t, env, "status", dir); err != nil {
		t.Fatalf("status while up: %v\n%s", err, out)
	}

	out, err := script(t, env, "start", dir)
	if err == nil {
		t.Fatalf("a second start in the same DIR exited 0, want an error:\n%s", out)
	}
	if !strings.Contains(out, "already running") {
		t.Errorf("a second start said %q, want it to say a cluster is already running", out)
	}

	// A stand-in for a container the cluster launched: in a session of its
	// own, working under DIR, as the NodeManagers start them.
	stray := exec.Command("sleep", "600")
	stray.Dir = filepath.Join(dir, "work")
	stray.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := stray.Start(); err != nil {
		t.Fatal(err)
	}
	strayDone := make(chan error, 1)
	go func() { strayDone <- stray.Wait() }()

	// Stop from a shell whose working directory is under DIR/work, as a
	// developer inspecting a container's files would: the shell survives.
	shell := exec.Command("bash", "-c", `"$0" stop "$1"; echo "exit $?; the shell survived"`, testcluster.Script(), dir)
	shell.Dir = filepath.Join(dir, "work")
	shell.Env = env
	shellOut, err := shell.CombinedOutput()
	if err != nil || !strings.Contains(string(shellOut), "exit 0; the shell survived") {
		t.Fatalf("stop from a shell under DIR/work: %v\n%s", err, shellOut)
	}
	if out, err := script(t, env, "status", dir); err == nil {
		t.Fatalf("status after stop exited 0, want non-zero:\n%s", out)
	}
	select {
	case <-strayDone:
	case <-time.After(10 * time.Second):
		stray.Process.Kill()
		t.Fatal("stop left a process running under DIR")
	}
	assertNothingRunsUnder(t, dir)
}

func TestMiniclusterStopsWhenItsOwnerExits(t *testing.T) {
	owner := exec.Command("sleep", "600")
	if err := owner.Start(); err != nil {
		t.Fatal(err)
	}
	defer owner.Process.Kill()
	dir := t.TempDir()
	env := scriptEnv(t, "MINICLUSTER_OWNER_PID="+strconv.Itoa(owner.Process.Pid))
	startOrFail(t, dir, env)

	owner.Process.Kill()
	owner.Wait()
	deadline := time.Now().Add(90 * time.Second)
	for {
		if _, err := script(t, env, "status", dir); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cluster was still up 90s after its owner exited")
		}
		time.Sleep(500 * time.Millisecond)
	}
	assertNothingRunsUnder(t, dir)
}
