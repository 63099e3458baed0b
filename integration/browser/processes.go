package browser

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// endProcessesUsing kills every process whose command line names a path
// under dir, until none is left or within has passed, and returns those
// still there. Chromium passes its profile (--user-data-dir) to each
// process it starts (renderers, the GPU and network services, the
// zygote) and its crash handler's database (under its HOME) to
// that handler, a test's browser has a home of its own, so the search
// finds them all: ending the main process alone can leave one behind.
func endProcessesUsing(dir string, within time.Duration) []int {
	for deadline := time.Now().Add(within); ; time.Sleep(50 * time.Millisecond) {
		left := processesUsing(dir)
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		for _, pid := range left {
			syscall.Kill(pid, syscall.SIGKILL) // one gone already is as good
		}
	}
}

// processesUsing lists the processes whose command line names a path
// under dir (as an argument or in one: chromium's children rewrite
// theirs into one string); an ended one (a zombie's command line is
// empty) is not among them.
func processesUsing(dir string) []int {
	want := []byte(filepath.Clean(dir) + "/")
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(cmdline, want) {
			pids = append(pids, pid)
		}
	}
	return pids
}
