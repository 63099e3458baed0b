package integration

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/internal/procstat"
)

// Helpers: the process table (/proc): a process's command line and
// environment, whether it is alive, the processes of an application,
// and stopping its AM's container as a NodeManager does.

// cmdline and environ read a process's command line and environment.
func cmdline(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.ReplaceAll(string(b), "\x00", " ")
}

func environ(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	return strings.ReplaceAll(string(b), "\x00", "\n")
}

// envValue is a variable's value in an environ's text ("" if unset).
func envValue(environ, key string) string {
	for _, line := range strings.Split(environ, "\n") {
		if v, ok := strings.CutPrefix(line, key+"="); ok {
			return v
		}
	}
	return ""
}

// alive reports whether pid is a live process (not a zombie).
func alive(pid int) bool {
	st, err := procstat.Read(pid)
	return err == nil && st.State != 'Z'
}

// syscallKill kills pid outright (SIGKILL).
func syscallKill(pid int) { syscall.Kill(pid, syscall.SIGKILL) }

// processes lists the processes on this machine, in /proc's order, that
// match says are wanted.
func processes(match func(pid int) bool) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil && match(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// applicationProcesses lists the processes of application app on this
// machine: its ApplicationMaster, executors, guards, tasks and whatever
// those started, each of which has the application's id or one of its
// containers' ids in its environment.
func applicationProcesses(app string) []int {
	container := "container_" + strings.TrimPrefix(app, "application_") + "_"
	return processes(func(pid int) bool {
		if !alive(pid) {
			return false
		}
		env := environ(pid)
		return strings.Contains(env, "SPINDLE_APP_ID="+app+"\n") || strings.Contains(env, "CONTAINER_ID="+container)
	})
}

// amProcess is the pid of application app's ApplicationMaster.
func amProcess(t *testing.T, app string) int {
	t.Helper()
	for _, pid := range applicationProcesses(app) {
		if strings.HasPrefix(cmdline(pid), "./spindle am ") {
			return pid
		}
	}
	t.Fatalf("no ApplicationMaster process of %s", app)
	return 0
}

// stopAMContainer does to app's AM container what a NodeManager does to
// stop one: SIGTERM to each of its processes (the launch script's shell
// and the AM), then SIGKILL 250ms later (yarn.nodemanager.
// sleep-delay-before-sigkill.ms).
func stopAMContainer(t *testing.T, app string) {
	t.Helper()
	container := envValue(environ(amProcess(t, app)), "CONTAINER_ID")
	var pids []int
	for _, pid := range applicationProcesses(app) {
		if envValue(environ(pid), "CONTAINER_ID") == container {
			pids = append(pids, pid)
		}
	}
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGTERM)
	}
	time.Sleep(250 * time.Millisecond)
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// procCwd is a process's working directory: a container's, under its
// NodeManager's local directory.
func procCwd(t *testing.T, pid int) string {
	t.Helper()
	cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pid))
	if err != nil {
		t.Fatal(err)
	}
	return cwd + "/"
}
