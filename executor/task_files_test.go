package executor

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/executor/tasklog"
	"github.com/spindle-yarn/spindle/executor/wire"
)

func quietLog() logrus.FieldLogger {
	l := logrus.New()
	l.SetOutput(io.Discard)
	return l
}

// attemptRan writes an attempt's files, as a task would (size bytes of
// stdout), around started and finished: its output, its resources file,
// and the file that told it to checkpoint and stop (its container went
// back to YARN), which goes with them.
func attemptRan(t *testing.T, f *taskFiles, job int64, task int32, size int) {
	t.Helper()
	a := attemptFiles{stage: 0, task: task}
	f.started(job, a)
	name := filepath.Join(f.dir, tasklog.Name(job, 0, int(task), 0))
	for suffix, content := range map[string]string{tasklog.Stdout: strings.Repeat("x", size), tasklog.Stderr: "", tasklog.Resources: "{}",
		tasklog.Preempted: ""} {
		if err := os.WriteFile(name+suffix, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f.finished(job, a)
}

// jobsOnDisk are the jobs with a file in dir, in order.
func jobsOnDisk(t *testing.T, dir string) []int64 {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var jobs []int64
	for _, e := range entries {
		if job, ok := tasklog.JobOf(e.Name()); ok && !slices.Contains(jobs, job) {
			jobs = append(jobs, job)
		}
	}
	slices.Sort(jobs)
	return jobs
}

// With MaxJobs 2, two ended jobs' files stay; the third's end removes the
// oldest ended job's, every file of it, and nothing else of the
// directory.
func TestTaskFilesKeepTheMaxJobsLastEnded(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "executor.log"), []byte("log"), 0o644)
	f := newTaskFiles(dir, tasklog.Policy{MaxJobs: 2}, quietLog())
	for _, job := range []int64{5, 3, 8} {
		attemptRan(t, f, job, 0, 10)
		attemptRan(t, f, job, 1, 10)
	}
	f.jobsEnded([]int64{5, 3})
	f.removeDoomed()
	if got := jobsOnDisk(t, dir); !slices.Equal(got, []int64{3, 5, 8}) {
		t.Fatalf("two jobs ended, 2 kept: files of jobs %v, want [3 5 8]", got)
	}
	f.jobsEnded([]int64{8})
	f.removeDoomed()
	if got := jobsOnDisk(t, dir); !slices.Equal(got, []int64{3, 8}) {
		t.Fatalf("a third ended: files of jobs %v, want [3 8] (5 ended first)", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1+2*2*4 {
		t.Fatalf("%d files left, want executor.log and 2 jobs x 2 attempts x 4 files", len(entries))
	}
}

// The bytes counted are the files' sizes when the attempt ended: at
// exactly MaxBytes the ended jobs stay, one byte over the oldest goes.
func TestTaskFilesKeepMaxBytes(t *testing.T) {
	dir := t.TempDir()
	// Each attempt: its stdout, an empty stderr and "{}" (2 bytes).
	f := newTaskFiles(dir, tasklog.Policy{MaxBytes: 2 * 50}, quietLog())
	attemptRan(t, f, 1, 0, 48)
	attemptRan(t, f, 2, 0, 48)
	f.jobsEnded([]int64{1, 2})
	f.removeDoomed()
	if got := jobsOnDisk(t, dir); !slices.Equal(got, []int64{1, 2}) {
		t.Fatalf("100 bytes of 100: files of jobs %v, want [1 2]", got)
	}
	attemptRan(t, f, 3, 0, 0) // 2 bytes
	f.jobsEnded([]int64{3})
	f.removeDoomed()
	if got := jobsOnDisk(t, dir); !slices.Equal(got, []int64{2, 3}) {
		t.Fatalf("102 bytes of 100: files of jobs %v, want [2 3]", got)
	}
}

// A running job's files are never removed, however far over the limits;
// a job said to have ended while one of its attempts still runs here
// counts once that attempt has ended.
func TestTaskFilesNeverRemoveARunningJobs(t *testing.T) {
	dir := t.TempDir()
	f := newTaskFiles(dir, tasklog.Policy{MaxJobs: 1, MaxBytes: 1}, quietLog())
	attemptRan(t, f, 1, 0, 1000) // running: not ended
	f.removeDoomed()
	if got := jobsOnDisk(t, dir); !slices.Equal(got, []int64{1}) {
		t.Fatalf("a running job over every limit: files of jobs %v, want [1]", got)
	}

	// Job 2 has an attempt still running when the driver says it ended.
	a := attemptFiles{task: 1}
	attemptRan(t, f, 2, 0, 0)
	f.started(2, a)
	os.WriteFile(filepath.Join(dir, tasklog.Name(2, 0, 1, 0)+tasklog.Stdout), []byte("late"), 0o644)
	f.jobsEnded([]int64{2})
	f.removeDoomed()
	if got := jobsOnDisk(t, dir); !slices.Equal(got, []int64{1, 2}) {
		t.Fatalf("job 2 ended with an attempt running here: files of jobs %v, want [1 2]", got)
	}
	f.finished(2, a)
	f.removeDoomed()
	if got := jobsOnDisk(t, dir); !slices.Equal(got, []int64{1}) {
		t.Fatalf("its last attempt ended (over 1 byte): files of jobs %v, want [1]", got)
	}
}

// Files doomed when the executor stops are removed before it is gone.
func TestTaskFilesRemovedWhenStopping(t *testing.T) {
	dir := t.TempDir()
	f := newTaskFiles(dir, tasklog.Policy{MaxJobs: 1}, quietLog())
	attemptRan(t, f, 1, 0, 1)
	attemptRan(t, f, 2, 0, 1)
	f.jobsEnded([]int64{1, 2})
	<-f.wake // as if the wake were missed: only the stop remains
	stop := make(chan struct{})
	close(stop)
	f.run(stop)
	if got := jobsOnDisk(t, dir); !slices.Equal(got, []int64{2}) {
		t.Fatalf("after the stop: files of jobs %v, want [2]", got)
	}
}

// A job that left no files here, or one said to have ended twice, does
// not count.
func TestTaskFilesCountOnlyJobsWithFilesHereOnce(t *testing.T) {
	dir := t.TempDir()
	f := newTaskFiles(dir, tasklog.Policy{MaxJobs: 2}, quietLog())
	attemptRan(t, f, 1, 0, 1)
	attemptRan(t, f, 2, 0, 1)
	f.jobsEnded([]int64{1, 7, 2, 2, 1, 9})
	f.removeDoomed()
	if got := jobsOnDisk(t, dir); !slices.Equal(got, []int64{1, 2}) {
		t.Fatalf("jobs 7 and 9 (none here) and repeats: files of jobs %v, want [1 2]", got)
	}
}

// Through the executor: tasks of three jobs run (one of them fails to
// start); the driver says two ended; with MaxJobs 1 the older ended job's
// files go, the running job's and the last ended job's stay.
func TestServeRemovesEndedJobsFiles(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dir := t.TempDir()
	conn, served := serveRegistered(t, ctx, Config{ID: "exec-1", AppID: "app-1", Host: "h", Cores: 3, LogDir: dir, WorkDir: dir,
		TaskLogs: tasklog.Policy{MaxJobs: 1}})
	var launches []*wire.Launch
	for job := range int64(3) {
		argv := []string{"sh", "-c", "echo out"}
		if job == 1 {
			// It never starts, leaving its resources file: that counts.
			argv = []string{"/no/such/command"}
		}
		launches = append(launches, &wire.Launch{StageId: job, JobId: job, TaskIndex: 0, Job: fmt.Sprint("j", job), Stage: "s", TaskCount: 1, Argv: argv})
	}
	conn.Send(&wire.Envelope{Message: &wire.Envelope_LaunchBatch{LaunchBatch: &wire.LaunchBatch{Launches: launches}}})
	for ended := 0; ended < 3; {
		m, err := conn.Recv()
		if err != nil {
			t.Fatal(err)
		}
		ended += len(m.GetStatusBatch().GetStatuses())
	}
	conn.Send(&wire.Envelope{Message: &wire.Envelope_JobsEnded{JobsEnded: &wire.JobsEnded{JobIds: []int64{1, 0}}}})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		got := jobsOnDisk(t, dir)
		if slices.Equal(got, []int64{0, 2}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("files of jobs %v, want [0 2]: job 1 ended first and goes", got)
		}
	}
	conn.Send(&wire.Envelope{Message: &wire.Envelope_Shutdown{Shutdown: &wire.Shutdown{Reason: "done"}}})
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	// Every removal is done once Serve has returned.
	if got := jobsOnDisk(t, dir); !slices.Equal(got, []int64{0, 2}) {
		t.Fatalf("after the executor stopped: files of jobs %v, want [0 2]", got)
	}
}
