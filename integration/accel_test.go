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

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// On the default mini cluster, which counts yarn.io/fpga (FPGAS_PER_NODE,
// no FPGA plugin): executors asking 2 FPGAs each get containers the RM
// records with 2 yarn.io/fpga, the AM gives each its node's indices, and
// every task of 1 FPGA sees one of its executor's, never one another
// task holds at the time.
func TestAccelFPGAsReachTheContainersAndTheTasks(t *testing.T) {
	c := testcluster.Get(t)
	if c.FPGAsPerNode < 2 {
		t.Fatalf("nodes of %d FPGAs; the test asks 2 per executor (FPGAS_PER_NODE)", c.FPGAsPerNode)
	}
	dir := t.TempDir()
	spec := writeSpec(t, fmt.Sprintf(`name: yarn-fpga
stages:
  - name: s
    tasks: 6
    command: ["/bin/sh", "-c", "s=$(date +%%s.%%N); cp \"$SPINDLE_RESOURCES_FILE\" %[1]s/res-$SPINDLE_TASK_INDEX.json; sleep 1; e=$(date +%%s.%%N); echo \"$SPINDLE_TASK_INDEX $SPINDLE_EXECUTOR_ID ${SPINDLE_FPGA_ADDRESSES:-none} $s $e\" >> %[1]s/seen"]
`, dir))
	cmd, buf := startOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.instances=2", "--conf", "spindle.executor.cores=2",
		"--conf", "spindle.executor.memory=512m", "--conf", "spark.executor.resource.fpga.amount=2", "--conf", "spindle.task.resource.fpga.amount=1", spec)
	// The RM's record of the executor containers while they run.
	fpgas := map[int]bool{}
	whileSubmitRuns(t, c, cmd, buf, "submit", func(ct container) { fpgas[ct.FPGAs] = true })
	if len(fpgas) != 1 || !fpgas[2] {
		t.Errorf("executor containers held %v yarn.io/fpga, want 2 each", fpgas)
	}
	lines := readLines(t, filepath.Join(dir, "seen"))
	if len(lines) != 6 {
		t.Fatalf("%d task records, want 6", len(lines))
	}
	type span struct{ start, end float64 }
	held := map[string][]span{} // by executor and FPGA
	for _, l := range lines {
		if len(l) != 5 {
			t.Fatalf("task record %q: want index, executor, FPGA addresses, start, end", l)
		}
		index, exec, addr := l[0], l[1], l[2]
		if addr != "0" && addr != "1" {
			t.Errorf("task %s on %s saw SPINDLE_FPGA_ADDRESSES %q, want one of its node's indices 0 and 1", index, exec, addr)
		}
		var res map[string]struct {
			Addresses []string `json:"addresses"`
		}
		data, _ := os.ReadFile(filepath.Join(dir, "res-"+index+".json"))
		if err := json.Unmarshal(data, &res); err != nil || len(res) != 1 || strings.Join(res["fpga"].Addresses, ",") != addr {
			t.Errorf("task %s's resources file %s (%v), want exactly fpga [%s]", index, data, err, addr)
		}
		s, _ := strconv.ParseFloat(l[3], 64)
		e, _ := strconv.ParseFloat(l[4], 64)
		held[exec+" "+addr] = append(held[exec+" "+addr], span{s, e})
	}
	for fpga, spans := range held {
		sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
		for i := 1; i < len(spans); i++ {
			if spans[i].start < spans[i-1].end {
				t.Errorf("FPGA %s held by two tasks at once", fpga)
			}
		}
	}
}

// A resource mapped to a type the RM does not know is refused at submit,
// before any application, naming the key and the type.
func TestAccelSubmitRefusesAResourceTypeTheRMDoesNotKnow(t *testing.T) {
	c := testcluster.Get(t)
	spec := writeSpec(t, "name: x\nstages:\n  - name: s\n    tasks: 1\n    command: [\"true\"]\n")
	o, err := spindleOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.resource.tpu.amount=1",
		"--conf", "spindle.yarn.resourceMapping=tpu=example.com/tpu", spec)
	if err == nil || !strings.Contains(o, "spindle.executor.resource.tpu.amount: the ResourceManager does not know the resource type example.com/tpu") ||
		!strings.Contains(o, "yarn.io/fpga") || strings.Contains(o, "submitted application_") {
		t.Fatalf("submit: %v, want a refusal naming the key and the type, before any application\n%s", err, o)
	}
}
