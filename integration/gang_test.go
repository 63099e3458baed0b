package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// rendezvousProgram is examples/gang/rendezvous.py: rank 0 listens at
// MASTER_ADDR:MASTER_PORT, the others connect, and each writes a line.
func rendezvousProgram(t *testing.T) string {
	return filepath.Join(filepath.Dir(filepath.Dir(testcluster.Script())), "examples", "gang", "rendezvous.py")
}

// gangSpec is a gang stage of n tasks of gpus GPUs each running the
// rendezvous program, writing to out (and, with pidFile, rank 1's first
// attempt parks there to be killed).
func gangSpec(t *testing.T, n, gpus int, out, pidFile string) string {
	args := fmt.Sprintf("%q, %q", rendezvousProgram(t), out)
	if pidFile != "" {
		args += fmt.Sprintf(", %q", pidFile)
	}
	return writeSpec(t, fmt.Sprintf(`name: gang
stages:
  - name: train
    gang: true
    tasks: %d
    resources: {cpus: 1, gpus: %d}
    command: ["python3", %s]
`, n, gpus, args))
}

// checkRendezvous reads the rendezvous program's lines: one per rank,
// ranks 0..n-1, every one met, all started within a second, and the
// variables agreeing with each other.
func checkRendezvous(t *testing.T, out string, n int) {
	t.Helper()
	lines := readLines(t, out)
	if len(lines) != n {
		t.Fatalf("%d tasks wrote, want %d: %v", len(lines), n, lines)
	}
	var ranks []int
	var starts []float64
	for _, l := range lines {
		if len(l) != 9 {
			t.Fatalf("line %q: want 9 fields", l)
		}
		rank, _ := strconv.Atoi(l[0])
		ranks = append(ranks, rank)
		if l[1] != strconv.Itoa(n) {
			t.Errorf("rank %d: WORLD_SIZE %s, want %d", rank, l[1], n)
		}
		hosts := strings.Split(l[6], ",")
		if len(hosts) != n || l[4] != hosts[0] || l[4] != lines[0][4] || l[5] != lines[0][5] {
			t.Errorf("rank %d: MASTER_ADDR %s MASTER_PORT %s SPINDLE_GANG_HOSTS %s, disagreeing with the others (%v)", rank, l[4], l[5], l[6], lines[0])
		}
		local, _ := strconv.Atoi(l[2])
		localWorld, _ := strconv.Atoi(l[3])
		if local >= localWorld {
			t.Errorf("rank %d: LOCAL_RANK %d of LOCAL_WORLD_SIZE %d", rank, local, localWorld)
		}
		want := "0"
		if rank == 0 {
			var others []string
			for r := 1; r < n; r++ {
				others = append(others, strconv.Itoa(r))
			}
			want = strings.Join(others, ",")
		}
		if l[8] != want {
			t.Errorf("rank %d met %s, want %s", rank, l[8], want)
		}
		s, _ := strconv.ParseFloat(l[7], 64)
		starts = append(starts, s)
	}
	slices.Sort(ranks)
	for i, r := range ranks {
		if r != i {
			t.Fatalf("ranks %v, want 0..%d", ranks, n-1)
		}
	}
	if spread := slices.Max(starts) - slices.Min(starts); spread > 1 {
		t.Errorf("the gang's tasks started %.3fs apart, want within 1s", spread)
	}
}

// Local mode runs a gang too: 4 tasks of 1 GPU on 2 executors of 2
// start together with their rendezvous variables and meet over TCP; a
// gang larger than the executors could ever hold is refused at submit.
func TestGangLocalRendezvous(t *testing.T) {
	out := filepath.Join(t.TempDir(), "met")
	if o, err := submit(t, append(localArgs, gangSpec(t, 4, 1, out, ""))...); err != nil {
		t.Fatalf("submit: %v\n%s", err, o)
	}
	checkRendezvous(t, out, 4)
	o, err := submit(t, append(localArgs, gangSpec(t, 5, 1, out, ""))...)
	if err == nil || !strings.Contains(o, `stage "train": gang of 5 tasks: local mode's 2 executors (4 cores, 2 GPUs each) hold 4 of its tasks at once`) {
		t.Fatalf("a gang of 5 on 4 slots: %v\n%s", err, o)
	}
}

// gangYarnArgs run a gang on 2 executors of 2 cores and 2 GPUs.
var gangYarnArgs = []string{"submit", "--master", "yarn", "--conf", "spindle.executor.instances=2", "--conf", "spindle.executor.cores=2",
	"--conf", "spindle.executor.memory=512m", "--conf", "spindle.executor.resource.gpu.amount=2"}

// On the mini cluster a gang of 4 tasks of 1 GPU starts within a second
// and meets at MASTER_ADDR:MASTER_PORT.
func TestGangOnYarnStartsTogetherAndMeets(t *testing.T) {
	c := testcluster.Get(t)
	out := filepath.Join(t.TempDir(), "met")
	began := time.Now()
	if o, err := spindleOn(t, c, append(slices.Clone(gangYarnArgs), gangSpec(t, 4, 1, out, ""))...); err != nil {
		t.Fatalf("submit: %v\n%s", err, o)
	}
	t.Logf("gang job ran in %v", time.Since(began).Round(time.Millisecond))
	checkRendezvous(t, out, 4)
}

// Killing one task of a running gang stops the others and runs the gang
// again whole; the job succeeds.
func TestGangRestartsWholeWhenATaskIsKilled(t *testing.T) {
	c := testcluster.Get(t)
	dir := t.TempDir()
	out, pidFile := filepath.Join(dir, "met"), filepath.Join(dir, "pid")
	cmd, buf := startOn(t, c, append(slices.Clone(gangYarnArgs), gangSpec(t, 4, 1, out, pidFile))...)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	var pid int
	waitFor(t, 2*time.Minute, "rank 1 to write its pid", func() bool {
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(string(b))
		return pid > 0
	})
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the job failed: %v\n%s", err, buf.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("the job did not end\n%s", buf.String())
	}
	// The others were stopped, not left to time out at the rendezvous
	// (30s) and fail on their own.
	ended := time.Since(killed)
	t.Logf("the job ended %v after the kill", ended.Round(time.Millisecond))
	if ended > 15*time.Second {
		t.Errorf("the job ended %v after the kill: the gang was not restarted at once", ended)
	}
	if m := submittedID.FindStringSubmatch(buf.String()); m == nil {
		t.Errorf("no application id in the output\n%s", buf.String())
	} else if log := amLog(t, c, m[1]); !strings.Contains(log, `gang stage \"train\" restarts: task 1 ended`) && !strings.Contains(log, `gang stage "train" restarts: task 1 ended`) {
		t.Errorf("the AM's log says nothing of the gang's restart")
	}
	checkRendezvous(t, out, 4) // every rank of the second run: the first wrote nothing
}

// A gang of 3 tasks of 4 GPUs cannot start on the 8-GPU cluster while
// another application holds 4: it fails after its tries with the gang's
// message, and in the RM's view none of its executor containers lived
// past the gang's timeout.
func TestGangTimesOutAndLetsGoOfItsContainers(t *testing.T) {
	c := testcluster.Get(t)
	dir := t.TempDir()
	holder := writeSpec(t, fmt.Sprintf(`name: holder
stages:
  - name: hold
    tasks: 1
    resources: {cpus: 1, gpus: 4}
    command: "touch %s/holding; sleep 120"
`, dir))
	o, err := spindleOn(t, c, "submit", "--master", "yarn", "--no-wait", "--conf", "spindle.executor.instances=1", "--conf", "spindle.executor.cores=1",
		"--conf", "spindle.executor.memory=512m", "--conf", "spindle.executor.resource.gpu.amount=4", holder)
	m := submittedID.FindStringSubmatch(o)
	if err != nil || m == nil {
		t.Fatalf("holder: %v\n%s", err, o)
	}
	t.Cleanup(func() { spindleOn(t, c, "kill", m[1]) })
	waitFor(t, 2*time.Minute, "the holder to hold 4 GPUs", func() bool {
		_, err := os.Stat(filepath.Join(dir, "holding"))
		return err == nil
	})

	const timeout = 4 * time.Second
	gang := gangSpec(t, 3, 4, filepath.Join(dir, "met"), "")
	o, err = spindleOn(t, c, "submit", "--master", "yarn", "--no-wait", "--conf", "spindle.executor.instances=1", "--conf", "spindle.executor.cores=1",
		"--conf", "spindle.executor.memory=512m", "--conf", "spindle.executor.resource.gpu.amount=4",
		"--conf", "spindle.gang.timeout=4s", "--conf", "spindle.gang.maxRetries=1", gang)
	g := submittedID.FindStringSubmatch(o)
	if err != nil || g == nil {
		t.Fatalf("gang: %v\n%s", err, o)
	}
	app := g[1]
	amContainer := "_000001"
	firstSeen, lastSeen := map[string]time.Time{}, map[string]time.Time{}
	began := time.Now()
	var info rmAppInfo
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		now := time.Now()
		for _, ct := range appContainers(t, c, app) {
			if strings.HasSuffix(ct.ID, amContainer) {
				continue
			}
			if _, ok := firstSeen[ct.ID]; !ok {
				firstSeen[ct.ID] = now
			}
			lastSeen[ct.ID] = now
		}
		info, err = rmApp(t, c, app)
		if err == nil && (info.State == "FINISHED" || info.State == "FAILED" || info.State == "KILLED") {
			break
		}
		if now.After(deadline) {
			t.Fatalf("the gang's application did not end: %+v", info)
		}
	}
	t.Logf("gang application ended in %v: %s", time.Since(began).Round(time.Millisecond), info.Diagnostics)
	if want := `gang stage "train" of job "gang": 1 of 3 tasks (1 cpu, 4 GPUs each) placeable within 4s, 2 tries`; !strings.Contains(info.Diagnostics, want) {
		t.Errorf("diagnostics %q, want %q", info.Diagnostics, want)
	}
	if len(firstSeen) == 0 {
		t.Errorf("the RM never showed an executor container of the gang's")
	}
	t.Logf("the gang's executor containers in the RM's view: %d", len(firstSeen))
	for id, first := range firstSeen {
		t.Logf("  %s held %v", id, lastSeen[id].Sub(first).Round(time.Millisecond))
		// Slack: a poll's period, the allocate interval that carries the
		// release and the executor's orderly end.
		if held := lastSeen[id].Sub(first); held > timeout+3*time.Second {
			t.Errorf("container %s held %v, past the gang's timeout of %v", id, held.Round(time.Millisecond), timeout)
		}
	}
}

// A rank that exited 0 before a sibling failed runs again with the
// gang: on the first run rank 0 exits 0 at once and rank 1 then fails;
// the second run has all 4 ranks, which meet, and the job succeeds
// (were rank 0 not rerun, the other 3 would wait for it at the
// rendezvous, 30s, and the job fail: maxAttempts 2).
func TestGangLocalRerunsARankThatSucceeded(t *testing.T) {
	dir := t.TempDir()
	out, done := filepath.Join(dir, "met"), filepath.Join(dir, "rank0-done")
	spec := writeSpec(t, fmt.Sprintf(`name: gang
stages:
  - name: train
    gang: true
    tasks: 4
    maxAttempts: 2
    resources: {cpus: 1, gpus: 1}
    command: |
      if [ "$SPINDLE_ATTEMPT" = 0 ] && [ "$RANK" = 0 ]; then touch %[1]q; exit 0; fi
      if [ "$SPINDLE_ATTEMPT" = 0 ] && [ "$RANK" = 1 ]; then
        while [ ! -e %[1]q ]; do sleep 0.05; done
        sleep 0.5; exit 1
      fi
      exec python3 %[2]q %[3]q
`, done, rendezvousProgram(t), out))
	began := time.Now()
	o, err := submit(t, append(localArgs, spec)...)
	t.Logf("the gang job ran in %v", time.Since(began).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("submit: %v\n%s", err, o)
	}
	if _, err := os.Stat(done); err != nil {
		t.Fatalf("rank 0's first attempt did not run: %v", err)
	}
	checkRendezvous(t, out, 4) // the second run's 4 ranks: the first wrote nothing
}
