package executor

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/executor/tasklog"
	"github.com/spindle-yarn/spindle/executor/wire"
)

// The executor's log says what it did, each line naming the task by its
// job, its stage's place in the job and its index and attempt (not the
// session-wide stage id the driver speaks of): its
// registration, each task's end (with why it failed), the kill it was
// asked for, and the shutdown. An operator reads it in executor.log or the
// container's executor.stderr.
func TestServeLogsWhatTheExecutorDid(t *testing.T) {
	var buf bytes.Buffer
	log := logrus.New()
	log.SetOutput(&buf)
	log.SetFormatter(&logrus.TextFormatter{DisableTimestamp: true, DisableColors: true})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dir := t.TempDir()
	secret := wire.NewSecret()
	conn, served := serveRegistered(t, ctx, Config{ID: "exec-1", AppID: "app-1", Host: "h", Cores: 2, Secret: secret,
		LogDir: dir, WorkDir: dir, Log: log.WithField("executor", "exec-1")})
	conn.Send(&wire.Envelope{Message: &wire.Envelope_LaunchBatch{LaunchBatch: &wire.LaunchBatch{Launches: []*wire.Launch{
		{StageId: 7, JobId: 4, StageIndex: 1, TaskIndex: 0, Attempt: 0, Job: "j", Stage: "s", TaskCount: 3, Argv: []string{"true"}},
		{StageId: 7, JobId: 4, StageIndex: 1, TaskIndex: 1, Attempt: 0, Job: "j", Stage: "s", TaskCount: 3, Argv: []string{"sh", "-c", "exit 3"}},
		{StageId: 7, JobId: 4, StageIndex: 1, TaskIndex: 2, Attempt: 0, Job: "j", Stage: "s", TaskCount: 3, Argv: []string{"sleep", "60"}},
	}}}})
	// Two end by themselves; the third runs until killed.
	ended := 0
	for ended < 2 {
		m, err := conn.Recv()
		if err != nil {
			t.Fatal(err)
		}
		ended += len(m.GetStatusBatch().GetStatuses())
	}
	conn.Send(&wire.Envelope{Message: &wire.Envelope_Kill{Kill: &wire.Kill{StageId: 7, TaskIndex: 2, Reason: "speculative copy won"}}})
	for ended < 3 {
		m, err := conn.Recv()
		if err != nil {
			t.Fatal(err)
		}
		ended += len(m.GetStatusBatch().GetStatuses())
	}
	conn.Send(&wire.Envelope{Message: &wire.Envelope_Shutdown{Shutdown: &wire.Shutdown{Reason: "job done"}}})
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	out := buf.String()
	for _, want := range []string{
		`level=info msg="registered with the driver" cores=2 driver="127\.0\.0\.1:\d+" executor=exec-1 gpus= host=h pid=\d+`,
		`level=info msg="task ended" duration=\S+ executor=exec-1 job=j stage=s state=SUCCEEDED task=job4-stage1-task0-attempt0`,
		`level=info msg="task ended" duration=\S+ executor=exec-1 job=j reason="exit status 3" stage=s state=FAILED task=job4-stage1-task1-attempt0`,
		`level=info msg="killing task" executor=exec-1 reason="speculative copy won" task=job4-stage1-task2-attempt0`,
		`level=info msg="task ended" duration=\S+ executor=exec-1 job=j reason=killed stage=s state=KILLED task=job4-stage1-task2-attempt0`,
		`level=info msg="the driver shut the executor down" executor=exec-1 reason="job done"`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("no log line matches %s", want)
		}
	}
	for i := range 3 {
		for _, suffix := range []string{tasklog.Stdout, tasklog.Stderr, tasklog.Resources} {
			if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("job4-stage1-task%d-attempt0%s", i, suffix))); err != nil {
				t.Errorf("task %d's file: %v", i, err)
			}
		}
	}
	if bytes.Contains(buf.Bytes(), secret) {
		t.Error("the log holds the secret")
	}
	if t.Failed() {
		t.Logf("log:\n%s", out)
	}
}
