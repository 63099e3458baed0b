package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor/tasklog"
	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// On YARN too a session's disk stays within its bounds: its executor
// keeps the task files of the last spindle.session.taskLogs.maxJobs
// ended jobs in its container's log directory, and the AM's am.stderr
// and the executor's executor.stderr roll over within spindle.log.maxBytes
// and .maxFiles (docs/sessions.md, "Disk use").
func TestYarnSessionDiskStaysWithinItsBounds(t *testing.T) {
	c := testcluster.Get(t)
	u := newSessionUser(t, "HADOOP_CONF_DIR="+c.ConfDir)
	id := u.startSession("--master", "yarn", "--name", "yarn-session-disk", "--conf", "spindle.executor.memory=512m", "--conf", "spindle.executor.instances=1",
		"--conf", "spindle.log.level=debug", "--conf", "spindle.log.maxBytes=1k", "--conf", "spindle.log.maxFiles=1",
		"--conf", "spindle.session.taskLogs.maxJobs=2")
	for i := range 5 {
		if out, err := u.run("submit", "--session", id, "--name", fmt.Sprint("j", i), "--tasks", "1", "--", "echo", "x"); err != nil {
			t.Fatalf("job %d: %v\n%s", i, err, out)
		}
	}
	logs := findUnder(c.Dir, regexp.MustCompile(`/`+regexp.QuoteMeta(id)+`/container_\d+_\d+_01_00000[2-9]/executor\.stderr$`))
	if len(logs) != 1 {
		t.Fatalf("%d executor logs of %s, want 1: %q", len(logs), id, logs)
	}
	execDir := filepath.Dir(logs[0])
	var jobs []int64
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		jobs = jobs[:0]
		entries, _ := os.ReadDir(execDir)
		for _, e := range entries {
			if job, ok := tasklog.JobOf(e.Name()); ok && !slices.Contains(jobs, job) {
				jobs = append(jobs, job)
			}
		}
		slices.Sort(jobs)
		if slices.Equal(jobs, []int64{3, 4}) || time.Now().After(deadline) {
			break
		}
	}
	if !slices.Equal(jobs, []int64{3, 4}) {
		t.Errorf("the executor's log directory holds task files of jobs %v, want [3 4], the last 2 ended", jobs)
	}
	for _, log := range []string{amFilePath(t, c, id, "am.stderr"), logs[0]} {
		checkRolledLog(t, log, 1024, 1)
	}
}
