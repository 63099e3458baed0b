package integration

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// A NodeManager that stops mid-job (not the AM's) kills its containers
// and the RM has its node SHUTDOWN. The AM, told so in allocate's
// updated_nodes, loses the executors there at once and blamelessly:
// their tasks run again elsewhere and no attempt counts as failed (the
// executors, killed, report none either). It asks for replacements,
// which the NodeManager started in the stopped one's slot (a new node)
// takes, and runs tasks on them. The cluster ends as it began, with two
// NodeManagers, for the tests after it.
func TestFaultNodeManagerLossReplacesItsExecutors(t *testing.T) {
	c := testcluster.GetWith(t, faultCluster)
	j := startFaultJob(t, c, "fault-nm-loss", 64, 2)
	slot := 1 - j.amSlot()
	// Its executors there and what runs in their containers end with the
	// NodeManager: by then any run they left with no end on record (the
	// executor killed before it could stop its tasks gracefully) is over.
	onNode := processesOn(j.app, slot)
	if len(onNode) < 4 {
		t.Fatalf("the job has %d processes on NodeManager %d; want its 2 executors and their tasks at least", len(onNode), slot)
	}
	gone := watchGone(t, onNode, 30*time.Second)
	stopping := time.Now()
	out := c.StopNM(t, slot)
	restored := false
	t.Cleanup(func() {
		if !restored {
			c.StartNM(t, slot)
		}
	})
	stopped, deadBy := between(t, out, "(node ", ")"), gone()
	fresh := c.StartNM(t, slot)
	restored = true
	runs := j.succeeds(2*time.Minute, deadBy)
	t.Logf("node %s stopped: the job's %d processes there gone %v after the stop began, the job ended %v after; %s", stopped, len(onNode),
		deadBy.Sub(stopping).Round(time.Millisecond), time.Since(stopping).Round(time.Millisecond), figures(runs, j.n, stopping, deadBy))

	log := j.amLog()
	nodeOf := map[string]string{} // container → node, as the AM launched them
	for _, m := range regexp.MustCompile(`msg="launching executor" app=\S+ attempt=\S+ container=(\S+) gpu_indices="[^"]*" node="([^"]+)"`).FindAllStringSubmatch(log, -1) {
		nodeOf[m[1]] = m[2]
	}
	lost := regexp.MustCompile(`msg="executor lost: container (\S+): its node `+regexp.QuoteMeta(stopped)+
		` is SHUTDOWN; its running tasks run again, not counted against them"`).FindAllStringSubmatch(log, -1)
	if len(lost) != 2 {
		t.Errorf("the AM log tells of %d executors lost with node %s SHUTDOWN, want its 2", len(lost), stopped)
	}
	if !regexp.MustCompile(`(?s)is SHUTDOWN; its running tasks.*msg="asking the ResourceManager for containers" app=\S+ asks="\d+:2"`).MatchString(log) {
		t.Error("the AM log does not show it asking for 2 containers after the loss")
	}
	// The runs cut short on the stopped node each ran again elsewhere,
	// and the replacements on the new node ran tasks.
	cut, replaced := 0, 0
	for _, r := range runs {
		switch nodeOf[r.Container] {
		case stopped:
			if r.How != "ok" {
				cut++
				if !ranAgainElsewhere(runs, r) {
					t.Errorf("%s was cut short and never ran to its end elsewhere", r)
				}
			}
		case fresh:
			replaced++
		}
	}
	if cut == 0 || replaced == 0 {
		t.Errorf("%d runs cut short on the stopped node %s and %d on the new node %s; want some of each", cut, stopped, replaced, fresh)
	}
	if sum := j.summary(); !strings.Contains(sum, "failed attempts 0,") {
		t.Errorf("the job's summary counts failed attempts:\n%s", sum)
	}
	if t.Failed() {
		t.Logf("AM log:\n%s", log)
	}
}

// ranAgainElsewhere says whether cut's task later ran to its end in
// another container.
func ranAgainElsewhere(runs []taskRun, cut taskRun) bool {
	for _, r := range runs {
		if r.Task == cut.Task && r.Container != cut.Container && r.How == "ok" && r.Start.After(cut.Start) {
			return true
		}
	}
	return false
}
