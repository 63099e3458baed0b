package integration

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// localFPGAArgs runs on 2 executors of 4 cores and 2 fake FPGAs each, of
// which every task takes 1: FPGAs, not cores, bound what runs at once.
var localFPGAArgs = []string{"submit", "--master", "local[2]", "--conf", "spindle.executor.cores=4",
	"--conf", "spindle.worker.resource.fpga.addresses=f0,f1,f2,f3", "--conf", "spark.executor.resource.fpga.amount=2",
	"--conf", "spindle.task.resource.fpga.amount=1"}

func TestLocalFPGAAddressesAreDistinctAndInTheResourcesFile(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, fmt.Sprintf(`name: fpga
stages:
  - name: s
    tasks: 8
    command: ["/bin/sh", "-c", "s=$(date +%%s.%%N); cp \"$SPINDLE_RESOURCES_FILE\" %[1]s/res-$SPINDLE_TASK_INDEX.json; sleep 0.3; e=$(date +%%s.%%N); echo \"$SPINDLE_TASK_INDEX $SPINDLE_EXECUTOR_ID ${SPINDLE_FPGA_ADDRESSES:-none} ${SPINDLE_GPU_ADDRESSES:-none} $s $e\" >> %[1]s/seen"]
`, dir))
	if o, err := submit(t, append(localFPGAArgs, spec)...); err != nil {
		t.Fatalf("submit: %v\n%s", err, o)
	}
	lines := readLines(t, filepath.Join(dir, "seen"))
	if len(lines) != 8 {
		t.Fatalf("%d task records, want 8", len(lines))
	}
	type span struct{ start, end float64 }
	byAddr := map[string][]span{}
	for _, l := range lines {
		if len(l) != 6 {
			t.Fatalf("task record %q: want index, executor, FPGA addresses, GPU addresses, start, end", l)
		}
		index, exec, addr := l[0], l[1], l[2]
		// SplitDisjoint gives executors consecutive addresses.
		if want := map[string]string{"f0": "exec-1", "f1": "exec-1", "f2": "exec-2", "f3": "exec-2"}[addr]; want != exec {
			t.Errorf("task %s on %s saw SPINDLE_FPGA_ADDRESSES %q, want one FPGA of its executor's", index, exec, addr)
		}
		if l[3] != "none" {
			t.Errorf("task %s saw GPUs %q, asking none", index, l[3])
		}
		var res map[string]struct {
			Name      string   `json:"name"`
			Addresses []string `json:"addresses"`
		}
		data, err := os.ReadFile(filepath.Join(dir, "res-"+index+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &res); err != nil || len(res) != 1 || res["fpga"].Name != "fpga" || strings.Join(res["fpga"].Addresses, ",") != addr {
			t.Errorf("task %s's resources file %s (%v), want exactly fpga [%s]", index, data, err, addr)
		}
		s, _ := strconv.ParseFloat(l[4], 64)
		e, _ := strconv.ParseFloat(l[5], 64)
		byAddr[addr] = append(byAddr[addr], span{s, e})
	}
	for addr, spans := range byAddr {
		sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
		for i := 1; i < len(spans); i++ {
			if spans[i].start < spans[i-1].end {
				t.Errorf("FPGA %s held by two tasks at once: %v and %v", addr, spans[i-1], spans[i])
			}
		}
	}
	if len(byAddr) != 4 {
		t.Errorf("tasks ran on FPGAs %v, want all 4 used", byAddr)
	}
}

func TestLocalFPGAsTooFewForTheExecutorsAreRefused(t *testing.T) {
	spec := writeSpec(t, "name: x\nstages:\n  - name: s\n    tasks: 1\n    command: [\"true\"]\n")
	args := []string{"submit", "--master", "local[2]", "--conf", "spindle.worker.resource.fpga.addresses=f0,f1,f2,f3",
		"--conf", "spindle.executor.resource.fpga.amount=3", spec}
	o, err := submit(t, args...)
	if err == nil || !strings.Contains(o, "2 executors × 3 fpga each need 6 fpga addresses; the worker has 4") {
		t.Fatalf("submit: %v, want the shortfall named\n%s", err, o)
	}
}
