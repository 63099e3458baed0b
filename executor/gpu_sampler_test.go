package executor

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// This machine has no GPU: a fake nvidia-smi, first on the executor's
// PATH, prints what the real one would, and is the proof.

// fakeNvidiaSMI writes an nvidia-smi into a directory of its own that
// records its arguments in dir/args, counts its runs in dir/runs and then
// runs body; it returns the directory, for PATH.
func fakeNvidiaSMI(t *testing.T, dir, body string) string {
	t.Helper()
	bin := t.TempDir()
	text := "#!/bin/sh\necho \"$@\" > " + dir + "/args\n" +
		"n=$(cat " + dir + "/runs 2>/dev/null || echo 0); n=$((n+1)); echo $n > " + dir + "/runs\n" + body + "\n"
	if err := os.WriteFile(filepath.Join(bin, "nvidia-smi"), []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// threeGPUs is a machine of three GPUs as nvidia-smi's query prints it,
// GPU 0's utilization the number of the run.
const threeGPUs = `echo "0, GPU-aaaa, $n, 1024, 81559"
echo "1, GPU-bbbb, [N/A], 2048, 81559"
echo "2, GPU-cccc, 99, 4096, 81559"`

// withGPUs has the executor find gpus (its launcher's list) and look for
// nvidia-smi in path first, sampling every interval.
func withGPUs(gpus, path string, interval time.Duration) func(*Config) {
	return func(c *Config) {
		c.WantGPUs = len(strings.Split(gpus, ","))
		c.GPUSources.Env = []string{"PATH=" + path + ":" + os.Getenv("PATH"), EnvExecutorGPUAddresses + "=" + gpus}
		c.GPUSampleInterval = interval
	}
}

// gpuHeartbeat reads until a heartbeat carries GPUs, skipping the rest.
func (d *fakeDriver) gpuHeartbeat() []*wire.GPUUse {
	d.t.Helper()
	for {
		if gpus := d.recv().GetHeartbeat().GetGpus(); len(gpus) > 0 {
			return gpus
		}
	}
}

// noGPUHeartbeat reads n heartbeats (the executor's every 10ms) and fails
// if one carries GPUs.
func (d *fakeDriver) noGPUHeartbeat(n int) {
	d.t.Helper()
	for i := 0; i < n; {
		m := d.recv()
		if h := m.GetHeartbeat(); h != nil {
			if len(h.GetGpus()) > 0 {
				d.t.Fatalf("a heartbeat carries GPUs: %v", h.GetGpus())
			}
			i++
		}
	}
}

// runs is how many times the fake nvidia-smi of dir ran.
func runs(dir string) int {
	data, _ := os.ReadFile(filepath.Join(dir, "runs"))
	n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return n
}

func beatEvery(every time.Duration) func(*Config) { return func(c *Config) { c.Heartbeat = every } }

// The executor asks nvidia-smi about its own GPUs, every interval, and
// sends the driver what it says of them, an index or a UUID naming each.
func TestGPUSamplesReachTheDriver(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dir := t.TempDir()
	d := startExecutor(t, ctx, 0, withGPUs("0,GPU-bbbb", fakeNvidiaSMI(t, dir, threeGPUs), 20*time.Millisecond))
	first := d.gpuHeartbeat()
	if len(first) != 2 || first[0].GetIndex() != 0 || first[0].GetUuid() != "GPU-aaaa" || first[0].GetMemoryUsedMib() != 1024 ||
		first[0].GetMemoryTotalMib() != 81559 || first[1].GetUuid() != "GPU-bbbb" || first[1].UtilizationPct != nil || first[1].GetMemoryUsedMib() != 2048 {
		t.Fatalf("the first sample: %v; want GPUs 0 and GPU-bbbb, not 2, GPU-bbbb's utilization absent", first)
	}
	// Another sample, taken later: GPU 0's utilization is the run's number.
	for d.gpuHeartbeat()[0].GetUtilizationPct() == first[0].GetUtilizationPct() {
	}
	args, _ := os.ReadFile(filepath.Join(dir, "args"))
	if want := "--query-gpu=index,uuid,utilization.gpu,memory.used,memory.total --format=csv,noheader,nounits --id=0,GPU-bbbb\n"; string(args) != want {
		t.Errorf("nvidia-smi was run with %q; want %q", args, want)
	}
	d.shutdown()
}

// Without nvidia-smi the executor has no figures, says so once, and
// works as before.
func TestNoNvidiaSMIMeansNoGPUFiguresAndNoError(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d := startExecutor(t, ctx, 0, withGPUs("0,1", t.TempDir(), 10*time.Millisecond), beatEvery(10*time.Millisecond),
		func(c *Config) { c.GPUSources.Env[0] = "PATH=" + t.TempDir() })
	d.launch(&wire.Launch{StageId: 1, Job: "j", Stage: "s", TaskCount: 1, GpuAddresses: []string{"0"}, Argv: []string{"true"}})
	if st := d.statuses(1)[0]; st.GetState() != wire.Status_SUCCEEDED {
		t.Errorf("a task without nvidia-smi: %v", st)
	}
	d.noGPUHeartbeat(20)
	if n := d.log.count("no GPU figures: nvidia-smi is not on the executor's PATH"); n != 1 {
		t.Errorf("the missing nvidia-smi was logged %d times; want once", n)
	}
	d.shutdown()
}

// An nvidia-smi that fails gives no figures, logged once, not each time;
// once it answers again the figures come back.
func TestFailingNvidiaSMIIsLoggedOnce(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dir := t.TempDir()
	fails := `if [ ! -e ` + dir + `/mended ]; then echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver." >&2; exit 9; fi
` + threeGPUs
	d := startExecutor(t, ctx, 0, withGPUs("2", fakeNvidiaSMI(t, dir, fails), 10*time.Millisecond), beatEvery(10*time.Millisecond))
	for deadline := time.Now().Add(10 * time.Second); runs(dir) < 3; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("nvidia-smi ran %d times; want every interval", runs(dir))
		}
	}
	d.noGPUHeartbeat(5)
	if n := d.log.count("no GPU figures until nvidia-smi answers"); n != 1 {
		t.Errorf("the failure was logged %d times at info; want once", n)
	}
	if err, _ := d.log.field("no GPU figures until nvidia-smi answers", "error").(error); err == nil ||
		!strings.Contains(err.Error(), `nvidia-smi failed: exit status 9; stderr: "NVIDIA-SMI has failed`) {
		t.Errorf("the failure logged: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "mended"), nil, 0o644)
	if gpus := d.gpuHeartbeat(); len(gpus) != 1 || gpus[0].GetIndex() != 2 || gpus[0].GetUtilizationPct() != 99 {
		t.Errorf("once mended: %v; want GPU 2's figures", gpus)
	}
	d.gpuHeartbeat()
	d.gpuHeartbeat()
	if n := d.log.count("GPU figures again: nvidia-smi answers"); n != 1 {
		t.Errorf("nvidia-smi answering again was logged %d times; want once", n)
	}
	d.shutdown()
}

// An nvidia-smi that hangs is stopped at the timeout: no figures, and the
// executor goes on.
func TestHungNvidiaSMIIsStopped(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dir := t.TempDir()
	d := startExecutor(t, ctx, 0, withGPUs("0", fakeNvidiaSMI(t, dir, "sleep 60"), 10*time.Millisecond), beatEvery(10*time.Millisecond),
		func(c *Config) { c.gpuSampleTimeout = 100 * time.Millisecond })
	d.log.waitFor(t, "no GPU figures until nvidia-smi answers", 1)
	if err, _ := d.log.field("no GPU figures until nvidia-smi answers", "error").(error); err == nil || !strings.Contains(err.Error(), "nvidia-smi did not answer within 100ms") {
		t.Errorf("the hang logged: %v", err)
	}
	d.noGPUHeartbeat(5)
	d.shutdown()
}

// The executor's end stops an nvidia-smi still running: it waits neither
// for it nor for its timeout.
func TestExecutorEndStopsNvidiaSMI(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dir := t.TempDir()
	d := startExecutor(t, ctx, 0, withGPUs("0", fakeNvidiaSMI(t, dir, "sleep 60"), time.Hour), func(c *Config) { c.gpuSampleTimeout = time.Hour })
	for deadline := time.Now().Add(10 * time.Second); runs(dir) < 1; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("nvidia-smi did not run")
		}
	}
	start := time.Now()
	d.shutdown()
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the executor took %v to stop with nvidia-smi hung", took)
	}
}

// An interval of 0 turns sampling off, and an executor without GPUs has
// nothing to sample: nvidia-smi is never run.
func TestGPUSamplingOffRunsNoNvidiaSMI(t *testing.T) {
	for name, opt := range map[string]func(*Config){
		"interval 0": func(c *Config) { c.GPUSampleInterval = 0 },
		"no GPUs":    func(c *Config) { c.WantGPUs = 0 },
	} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			dir := t.TempDir()
			d := startExecutor(t, ctx, 0, withGPUs("0", fakeNvidiaSMI(t, dir, threeGPUs), 10*time.Millisecond), beatEvery(10*time.Millisecond), opt)
			d.noGPUHeartbeat(20)
			if _, err := os.Stat(filepath.Join(dir, "runs")); err == nil {
				t.Error("nvidia-smi was run")
			}
			d.shutdown()
		})
	}
}

// While the executor has no driver (its ApplicationMaster gone, the next
// not yet come) it goes on sampling, keeping only the latest, which the
// next driver gets.
func TestGPUSamplesWaitForARejoiningDriver(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dir := t.TempDir()
	d := startExecutor(t, ctx, 10*time.Second, withGPUs("0", fakeNvidiaSMI(t, dir, threeGPUs), 10*time.Millisecond))
	d.gpuHeartbeat()
	d.drop()
	d.log.waitFor(t, "keeping the tasks running for a new ApplicationMaster", 1)
	dropped := runs(dir)
	for deadline := time.Now().Add(10 * time.Second); runs(dir) < dropped+3; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("nvidia-smi ran %d times after the driver went, in 10s; want it run on", runs(dir)-dropped)
		}
	}
	d.rejoin()
	d.accept()
	if gpus := d.gpuHeartbeat(); len(gpus) != 1 || gpus[0].GetUtilizationPct() <= uint32(dropped) {
		t.Errorf("the next driver's first figures: %v; want GPU 0's, sampled after the first driver went (run > %d)", gpus, dropped)
	}
	d.shutdown()
}

// An nvidia-smi that names none of the executor's GPUs gives no figures,
// and the log says why.
func TestNvidiaSMINamingNoneOfTheExecutorsGPUs(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d := startExecutor(t, ctx, 0, withGPUs("7", fakeNvidiaSMI(t, t.TempDir(), threeGPUs), 10*time.Millisecond), beatEvery(10*time.Millisecond))
	d.log.waitFor(t, "no GPU figures until nvidia-smi answers", 1)
	if err, _ := d.log.field("no GPU figures until nvidia-smi answers", "error").(error); err == nil || err.Error() != "nvidia-smi names none of the executor's GPUs" {
		t.Errorf("logged: %v", err)
	}
	d.noGPUHeartbeat(5)
	d.shutdown()
}

// The launch's interval is the executor's.
func TestLaunchConfigCarriesTheGPUSampleInterval(t *testing.T) {
	if cfg := (Launch{ExecutorID: "e", GPUSampleInterval: 7 * time.Second}).Config(nil, nil); cfg.GPUSampleInterval != 7*time.Second {
		t.Errorf("Config's GPUSampleInterval = %v; want the launch's 7s", cfg.GPUSampleInterval)
	}
}
