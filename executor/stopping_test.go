package executor

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// An executor stopped from outside (SIGTERM cancels its context: its
// NodeManager stopping, a preemption) stops its running tasks and
// reports no failure for them: that is the executor's end, for the
// driver to blame by its container's exit status, not a failed attempt
// of each task. A task that ended before still reports as ever, and so
// does one that, stopped, says it succeeded (exits 0).
func TestStoppedExecutorReportsNoFailureForTheTasksItStops(t *testing.T) {
	var buf bytes.Buffer
	log := logrus.New()
	log.SetOutput(&buf)
	log.SetFormatter(&logrus.TextFormatter{DisableTimestamp: true, DisableColors: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	started, saved := filepath.Join(dir, "started"), filepath.Join(dir, "saved")
	conn, served := serveRegistered(t, ctx, Config{ID: "exec-1", AppID: "app-1", Host: "h", Cores: 2, LogDir: dir, WorkDir: dir, Log: log})
	conn.Send(&wire.Envelope{Message: &wire.Envelope_LaunchBatch{LaunchBatch: &wire.LaunchBatch{Launches: []*wire.Launch{
		{StageId: 1, TaskIndex: 0, Job: "j", Stage: "s", TaskCount: 3, Argv: []string{"sh", "-c", "exit 3"}},
		{StageId: 1, TaskIndex: 1, Job: "j", Stage: "s", TaskCount: 3, Argv: []string{"sh", "-c", "touch " + started + "; exec sleep 60"}},
		{StageId: 1, TaskIndex: 2, Job: "j", Stage: "s", TaskCount: 3, Argv: []string{"sh", "-c", "trap 'exit 0' TERM; touch " + saved + "; sleep 60 & wait"}},
	}}}})
	m, err := conn.Recv()
	if err != nil || len(m.GetStatusBatch().GetStatuses()) != 1 || m.GetStatusBatch().GetStatuses()[0].GetState() != wire.Status_FAILED {
		t.Fatalf("first message %v, %v; want task 0's failure", m, err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		_, err1 := os.Stat(started)
		_, err2 := os.Stat(saved)
		if err1 == nil && err2 == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("tasks 1 and 2 never started")
		}
	}
	cancel()
	var reported []string
	for {
		m, err := conn.Recv()
		if err != nil {
			break // the executor has gone
		}
		for _, st := range m.GetStatusBatch().GetStatuses() {
			reported = append(reported, fmt.Sprintf("task %d %v", st.GetTaskIndex(), st.GetState()))
		}
	}
	if want := []string{"task 2 SUCCEEDED"}; !slices.Equal(reported, want) {
		t.Errorf("the stopping executor reported %v; want %v (task 1's failure is its own end)", reported, want)
	}
	if err := <-served; err == nil {
		t.Error("Serve returned nil; want the context's error")
	}
	if out := buf.String(); !strings.Contains(out, `msg="task stopped with the executor: not reported"`) || !strings.Contains(out, "task=job0-stage0-task1-attempt0") {
		t.Errorf("the log does not say task 1 stopped with the executor:\n%s", out)
	}
}
