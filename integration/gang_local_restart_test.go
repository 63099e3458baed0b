package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// restartPools are the FAIR session's pools of the gang-restart test.
const restartPools = `<?xml version="1.0"?>
<allocations>
  <pool name="prod"><schedulingMode>FAIR</schedulingMode><weight>1</weight></pool>
  <pool name="adhoc"><schedulingMode>FAIR</schedulingMode><weight>1</weight></pool>
</allocations>
`

// runRecord is one line a task of the gang-restart test appends: its
// job, index, attempt, "start" or "end", and the time.
type runRecord struct {
	job        string
	index, try int
	start      bool
	at         float64
}

// recordRun is the shell lines that append a runRecord of what ($1 of
// the job's command) to file.
func recordRun(file, what string) string {
	return fmt.Sprintf(`echo "$SPINDLE_JOB $SPINDLE_TASK_INDEX $SPINDLE_ATTEMPT %s $(date +%%s.%%N)" >> %s`, what, file)
}

// readRestartRuns reads the runRecords in file.
func readRestartRuns(t *testing.T, file string) []runRecord {
	t.Helper()
	var out []runRecord
	for _, f := range readLines(t, file) {
		if len(f) != 5 {
			t.Fatalf("record %q", f)
		}
		r := runRecord{job: f[0], start: f[3] == "start"}
		r.index, _ = strconv.Atoi(f[1])
		r.try, _ = strconv.Atoi(f[2])
		r.at, _ = strconv.ParseFloat(f[4], 64)
		out = append(out, r)
	}
	return out
}

// Issue 34's scenario, for real: in a FAIR local session of 4 executors
// of 2 cores and 2 (fake) GPUs, a gang of 4 × 1 GPU in pool prod runs
// beside 6 tasks of 2 GPUs in pool adhoc (2 running). One rank is
// killed: the gang runs again within seconds, on the slots its stopped
// ranks freed, and adhoc starts no task while it restarts.
func TestGangLocalRestartKeepsItsSlots(t *testing.T) {
	dir := t.TempDir()
	runs, pidFile, pools := filepath.Join(dir, "runs"), filepath.Join(dir, "pid"), filepath.Join(dir, "pools.xml")
	if err := os.WriteFile(pools, []byte(restartPools), 0o644); err != nil {
		t.Fatal(err)
	}
	u := newSessionUser(t)
	id := u.startSession("--master", "local[4]", "--conf", "spindle.executor.cores=2", "--conf", "spindle.executor.resource.gpu.amount=2",
		"--conf", "spindle.worker.resource.gpu.addresses=0,1,2,3,4,5,6,7", "--conf", "spindle.scheduler.mode=FAIR",
		"--conf", "spindle.scheduler.allocation.file="+pools)
	// Rank 1's first attempt parks to be killed; the others' first run
	// lasts until they are stopped, their second a moment.
	gang := writeSpec(t, fmt.Sprintf(`name: train
pool: prod
stages:
  - name: train
    gang: true
    tasks: 4
    resources: {cpus: 1, gpus: 1}
    command:
      - /bin/sh
      - -c
      - |
        %s
        if [ "$SPINDLE_ATTEMPT" = 0 ]; then
          [ "$RANK" = 1 ] && echo $$ > %s
          exec sleep 120
        fi
        sleep 1
`, recordRun(runs, "start"), pidFile))
	gangCmd, gangOut := u.start("submit", "--session", id, gang)
	waitFor(t, time.Minute, "the gang's 4 ranks to start", func() bool { return countRuns(runs, "train", 0) == 4 && fileHas(pidFile) })
	adhoc := writeSpec(t, fmt.Sprintf(`name: adhoc
pool: adhoc
stages:
  - name: work
    tasks: 6
    resources: {cpus: 1, gpus: 2}
    command: ["/bin/sh", "-c", %q]
`, recordRun(runs, "start")+"; sleep 8; "+recordRun(runs, "end")))
	adhocCmd, adhocOut := u.start("submit", "--session", id, adhoc)
	waitFor(t, time.Minute, "2 adhoc tasks to start", func() bool { return countRuns(runs, "adhoc", 0) == 2 })
	b, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := float64(time.Now().UnixNano()) / 1e9
	for what, c := range map[string]*struct {
		wait func() error
		out  *syncBuffer
	}{"train": {gangCmd.Wait, gangOut}, "adhoc": {adhocCmd.Wait, adhocOut}} {
		if err := c.wait(); err != nil || !strings.Contains(c.out.String(), "job "+what+" SUCCEEDED") {
			t.Fatalf("job %s: %v\n%s", what, err, c.out.String())
		}
	}
	checkRestartKeptSlots(t, readRestartRuns(t, runs), killed)
}

// checkRestartKeptSlots checks the runs of the gang-restart test: the
// gang's second run started within 15s of the kill, all 4 ranks, and
// adhoc's running count never grew past its 2 between the kill and that
// run (an adhoc task may start there only in the slot of one that
// ended).
func checkRestartKeptSlots(t *testing.T, runs []runRecord, killed float64) {
	t.Helper()
	rerun, ranks := 0.0, 0
	for _, r := range runs {
		if r.job == "train" && r.try > 0 {
			ranks++
			if rerun == 0 || r.at < rerun {
				rerun = r.at
			}
		}
	}
	if ranks != 4 {
		t.Fatalf("the gang's second run had %d ranks, want 4: %+v", ranks, runs)
	}
	t.Logf("the gang ran again %.2fs after the kill", rerun-killed)
	if rerun-killed > 15 {
		t.Errorf("the gang ran again %.1fs after the kill, want within seconds", rerun-killed)
	}
	for _, r := range runs {
		if r.job != "adhoc" || !r.start || r.at <= killed || r.at >= rerun {
			continue
		}
		if n := adhocRunning(runs, r.at); n > 2 {
			t.Errorf("adhoc task %d started %.2fs after the kill, while the gang restarted (it ran again %.2fs after): %d adhoc tasks running", r.index, r.at-killed, rerun-killed, n)
		}
	}
}

// adhocRunning counts the adhoc tasks started and not ended at time at.
func adhocRunning(runs []runRecord, at float64) int {
	n := 0
	for _, r := range runs {
		switch {
		case r.job != "adhoc" || r.at > at:
		case r.start:
			n++
		default:
			n--
		}
	}
	return n
}

// countRuns counts the start records of job's attempts try in file.
func countRuns(file, job string, try int) int {
	b, _ := os.ReadFile(file)
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 5 && f[0] == job && f[2] == strconv.Itoa(try) && f[3] == "start" {
			n++
		}
	}
	return n
}

// fileHas says whether file exists and is not empty.
func fileHas(file string) bool {
	st, err := os.Stat(file)
	return err == nil && st.Size() > 0
}
