package integration

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// openDescriptors lists where process pid's descriptors lead.
func openDescriptors(pid int) map[int]string {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	entries, _ := os.ReadDir(dir)
	fds := map[int]string{}
	for _, e := range entries {
		var fd int
		if _, err := fmt.Sscan(e.Name(), &fd); err != nil {
			continue
		}
		if target, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil {
			fds[fd] = target
		}
	}
	return fds
}

// A descriptor its caller left open, 7 on a file, reaches none of a local
// session's processes: not its driver, executors, guards or tasks. And
// `spindle session start 3>&1 | cat` returns: the driver in the background
// does not hold the pipe's write end.
func TestLocalSessionInheritsNoDescriptor(t *testing.T) {
	u := newSessionUser(t)
	lock := filepath.Join(t.TempDir(), "callers.lock")
	f, err := os.Create(lock)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	start := exec.Command(spindleBinary(t), "session", "start", "--master", "local[1]")
	start.Env = u.env
	start.ExtraFiles = []*os.File{nil, nil, nil, nil, f} // descriptor 7
	out, err := start.CombinedOutput()
	m := sessionLine.FindStringSubmatch(string(out))
	if err != nil || m == nil {
		t.Fatalf("session start with descriptor 7 open: %v\n%s", err, out)
	}
	id := m[1]
	t.Cleanup(func() { u.run("session", "stop", id) })
	if res, err := u.run("submit", "--session", id, "--detach", "--name", "held", "--tasks", "1", "--", "sleep", "120"); err != nil {
		t.Fatalf("submit: %v\n%s", err, res)
	}
	var task int
	waitFor(t, 30*time.Second, "the task to run", func() bool {
		for _, pid := range applicationProcesses(id) {
			if strings.HasPrefix(cmdline(pid), "sleep 120") {
				task = pid
			}
		}
		return task != 0
	})
	_, rec := u.sessionRecord(id)
	pids := append(applicationProcesses(id), int(rec["pid"].(float64)))
	if len(pids) < 4 { // the driver, an executor, its guard and the task
		t.Fatalf("session %s runs %v; want its driver, executor, guard and task at least", id, pids)
	}
	for _, pid := range pids {
		for fd, target := range openDescriptors(pid) {
			if target == lock {
				t.Errorf("process %d (%s) holds its caller's %s as descriptor %d", pid, strings.TrimSpace(cmdline(pid)), lock, fd)
			}
		}
	}

	// A pipe on descriptor 3 of the command, as a shell makes it.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	piped := exec.CommandContext(ctx, "bash", "-c", spindleBinary(t)+" session start --master 'local[1]' 3>&1 | cat")
	piped.Env = u.env
	// Should it hang, cat outlives the killed bash and holds the output:
	// stop waiting for it.
	piped.WaitDelay = 5 * time.Second
	began := time.Now()
	out, err = piped.CombinedOutput()
	m = sessionLine.FindStringSubmatch(string(out))
	if m != nil {
		t.Cleanup(func() { u.run("session", "stop", m[1]) })
	}
	if err != nil || m == nil {
		t.Fatalf("session start 3>&1 | cat, after %v: %v\n%s", time.Since(began).Round(time.Millisecond), err, out)
	}
	t.Logf("session start 3>&1 | cat returned in %v", time.Since(began).Round(time.Millisecond))
}
