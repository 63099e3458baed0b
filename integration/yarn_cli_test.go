package integration

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

func TestCLIStatusListAndKill(t *testing.T) {
	c := testcluster.Get(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	appID, _ := submitUnmanaged(ctx, t, applicationClient(t, c), "spindle-cli-test")
	id := yarn.ApplicationID(appID)

	out, err := spindleOn(t, c, "status", id)
	if err != nil || !strings.Contains(out, id) || !strings.Contains(out, "spindle-cli-test") || !strings.Contains(out, "SPINDLE") {
		t.Fatalf("spindle status %s: %v\n%s", id, err, out)
	}
	if out, err := spindleOn(t, c, "list"); err != nil || !strings.Contains(out, id) {
		t.Fatalf("spindle list does not show the running %s: %v\n%s", id, err, out)
	}
	if out, err := spindleOn(t, c, "kill", id); err != nil || !strings.Contains(out, "KILLED") {
		t.Fatalf("spindle kill %s: %v\n%s", id, err, out)
	}
	if out, err := spindleOn(t, c, "status", id); err != nil || !strings.Contains(out, "State         KILLED") {
		t.Fatalf("status after kill: %v\n%s", err, out)
	}
	if out, err := spindleOn(t, c, "list"); err != nil || strings.Contains(out, id) {
		t.Fatalf("spindle list still shows the killed %s: %v\n%s", id, err, out)
	}
	if out, err := spindleOn(t, c, "list", "--all"); err != nil || !strings.Contains(out, id) {
		t.Fatalf("spindle list --all does not show the killed %s: %v\n%s", id, err, out)
	}
	out, err = spindleOn(t, c, "status", "application_1_9999")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || !strings.Contains(out, "does not know this application") {
		t.Fatalf("status of an unknown application: %v\n%s", err, out)
	}
}

func TestYarnCheckCatchesWhatWouldFailLate(t *testing.T) {
	c := testcluster.Get(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rm := applicationClient(t, c)
	app, err := rm.GetNewApplication(ctx, &hadoopyarn.GetNewApplicationRequestProto{})
	if err != nil {
		t.Fatal(err)
	}
	max := app.GetMaximumCapability()
	fits := []yarnapp.Ask{{Role: "ApplicationMaster", MemoryMB: 256, VCores: 1}, {Role: "executor", MemoryMB: 1024, VCores: 2, GPUs: c.GPUsPerNode}}
	if err := yarnapp.Check(ctx, rm, max, "default", fits); err != nil {
		t.Fatalf("asks the cluster can grant were refused: %v", err)
	}
	tooMany := []yarnapp.Ask{{Role: "executor", MemoryMB: 1024, VCores: 1, GPUs: c.GPUsPerNode * 2}}
	err = yarnapp.Check(ctx, rm, max, "default", tooMany)
	if err == nil || !strings.Contains(err.Error(), "yarn.io/gpu") || !strings.Contains(err.Error(), "maximum allocation of 4") {
		t.Fatalf("an executor of %d GPUs on nodes of %d: err = %v, want one naming yarn.io/gpu and the maximum", c.GPUsPerNode*2, c.GPUsPerNode, err)
	}
	if err := yarnapp.Check(ctx, rm, max, "no-such-queue", fits); err == nil || !strings.Contains(err.Error(), `queue "no-such-queue"`) {
		t.Fatalf("an unknown queue: err = %v", err)
	}
}
