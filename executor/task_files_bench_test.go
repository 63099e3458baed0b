package executor

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spindle-yarn/spindle/executor/tasklog"
)

// BenchmarkTaskFilesAccount is what keeping account of task files adds
// to each attempt on an executor: noting it started, and counting its
// files' bytes (five stats, two of them of files that are not there)
// when it ended. Compare contain's BenchmarkPooledStartAndWait, an
// attempt's own least cost.
func BenchmarkTaskFilesAccount(b *testing.B) {
	dir := b.TempDir()
	f := newTaskFiles(dir, tasklog.Policy{MaxJobs: 100}, quietLog())
	name := filepath.Join(dir, tasklog.Name(1, 0, 0, 0))
	for _, s := range []string{tasklog.Stdout, tasklog.Stderr, tasklog.Resources} {
		os.WriteFile(name+s, []byte("{}"), 0o644)
	}
	a := attemptFiles{}
	for b.Loop() {
		f.started(1, a)
		f.finished(1, a)
	}
}
