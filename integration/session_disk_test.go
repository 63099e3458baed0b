package integration

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/deploy/session"
	"github.com/spindle-yarn/spindle/executor/tasklog"
	"github.com/spindle-yarn/spindle/executor/wire"
)

// After 2,000 small jobs a local session holds, on each executor, the
// task files of only its most recently ended jobs within
// spindle.session.taskLogs.maxBytes (here 3000 bytes: 14 jobs of 203),
// and every log (driver.log, each executor.log) rolled over within
// spindle.log.maxBytes and .maxFiles (docs/sessions.md, "Disk use").
func TestLocalSessionDiskStaysWithinItsBounds(t *testing.T) {
	const (
		jobs         = 2000
		maxJobs      = 20
		maxBytes     = 3000
		jobBytes     = 201 + 0 + 2 // stdout (200 x's and a newline), stderr, resources.json ("{}")
		keptJobs     = maxBytes / jobBytes
		logMaxBytes  = 16 << 10
		logMaxFiles  = 2
		submitters   = 16
		perSubmitter = jobs / submitters
	)
	u := newSessionUser(t)
	id := u.startSession("--master", "local[2]", "--conf", "spindle.log.level=debug",
		"--conf", fmt.Sprint("spindle.session.taskLogs.maxJobs=", maxJobs), "--conf", fmt.Sprint("spindle.session.taskLogs.maxBytes=", maxBytes),
		"--conf", fmt.Sprint("spindle.log.maxBytes=", logMaxBytes), "--conf", fmt.Sprint("spindle.log.maxFiles=", logMaxFiles))
	stateDir, rec := u.sessionRecord(id)
	secret, err := os.ReadFile(filepath.Join(stateDir, "secret"))
	if err != nil {
		t.Fatal(err)
	}
	appDir := filepath.Dir(rec["log"].(string))
	client := session.Client{Network: "unix", Addr: rec["socket"].(string), Secret: secret}

	// Followed submits from 16 clients at once, each job one task that
	// prints 200 bytes.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	spec := []byte("name: small\nstages:\n  - {name: s, tasks: 1, command: [\"sh\", \"-c\", \"printf '%0200d\\\\n' 0 | tr 0 x\"]}\n")
	var wg sync.WaitGroup
	errs := make(chan error, submitters)
	for range submitters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range perSubmitter {
				var last *wire.JobUpdate
				sub, err := client.Submit(ctx, ctx, &wire.SubmitJob{Spec: spec, Source: "small.yaml", TaskCpus: 1, MaxAttempts: 1, DefaultPool: "default", Follow: true})
				if err == nil {
					last, err = sub.Wait(ctx)
					sub.Close()
				}
				if err == nil && last.GetJob().GetState() != "SUCCEEDED" {
					err = fmt.Errorf("job %d: %v", last.GetJob().GetId(), last)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	// The executors hear of the last jobs' ends just after their clients
	// do, and remove files in the background: give them a moment.
	var report string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var ok bool
		report, ok = taskFilesWithin(t, appDir, keptJobs, maxBytes)
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %d jobs the task files are not within the bounds (each executor: the last %d ended jobs, at most %d bytes):\n%s", jobs, keptJobs, maxBytes, report)
		}
	}
	t.Logf("task files after %d jobs:\n%s", jobs, report)

	// Every log rolled over, and each kept at most logMaxFiles old files
	// of at most logMaxBytes each.
	for _, log := range []string{filepath.Join(appDir, "driver.log"), filepath.Join(appDir, "exec-1", "executor.log"), filepath.Join(appDir, "exec-2", "executor.log")} {
		checkRolledLog(t, log, logMaxBytes, logMaxFiles)
	}
	// The last lines, one of the last jobs' ends, are in the current
	// executor logs: nothing was lost at the roll.
	for _, e := range []string{"exec-1", "exec-2"} {
		if b := readFile(t, filepath.Join(appDir, e, "executor.log")); !regexp.MustCompile(`msg="task ended" .*task=job\d+-stage0-task0-attempt0`).MatchString(b) {
			t.Errorf("%s's current executor.log tells of no task's end:\n%s", e, b)
		}
	}
}

// taskFilesWithin says whether each executor directory under appDir
// holds the files of exactly kept jobs, three files each, within
// maxBytes, and reports what each holds.
func taskFilesWithin(t *testing.T, appDir string, kept int, maxBytes int64) (string, bool) {
	t.Helper()
	var report strings.Builder
	ok := true
	for _, e := range []string{"exec-1", "exec-2"} {
		entries, err := os.ReadDir(filepath.Join(appDir, e))
		if err != nil {
			t.Fatal(err)
		}
		files, bytes := 0, int64(0)
		jobs := map[int64]bool{}
		for _, d := range entries {
			job, isTask := tasklog.JobOf(d.Name())
			if !isTask {
				continue
			}
			fi, err := d.Info()
			if err != nil {
				continue // removed meanwhile
			}
			files++
			bytes += fi.Size()
			jobs[job] = true
		}
		fmt.Fprintf(&report, "  %s: %d task files of %d jobs, %d bytes\n", e, files, len(jobs), bytes)
		if len(jobs) != kept || files != 3*kept || bytes > maxBytes {
			ok = false
		}
	}
	return report.String(), ok
}
