package testcluster

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// controlTimeout bounds one fault control: the harness answers once the
// RM shows the action done (minicluster.sh gives up after 180 s itself).
const controlTimeout = 4 * time.Minute

// Control runs `minicluster.sh CMD DIR ARGS...` on the cluster and returns
// what it printed: one line saying what happened. The error carries the
// harness's message. Tests that disrupt a cluster must own it: never call
// this on the shared cluster of Get.
func (c *Cluster) Control(cmd string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), controlTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, Script(), append([]string{cmd, c.Dir}, args...)...).CombinedOutput()
	text := strings.TrimSpace(string(out))
	if err != nil {
		return text, fmt.Errorf("minicluster.sh %s %s %s: %v: %s", cmd, c.Dir, strings.Join(args, " "), err, text)
	}
	return text, nil
}

func (c *Cluster) mustControl(t testing.TB, cmd string, args ...string) string {
	t.Helper()
	out, err := c.Control(cmd, args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("minicluster.sh %s: %s", cmd, out)
	return out
}

// RestartRM restarts the ResourceManager, work-preserving: it returns once
// the new RM is up and every running NodeManager has registered again.
func (c *Cluster) RestartRM(t testing.TB) string {
	t.Helper()
	return c.mustControl(t, "restart-rm")
}

// FailoverRM makes the standby RM of an HA pair (Config.RMs 2) active and
// the active one standby; it returns once the new active RM has every
// running NodeManager registered.
func (c *Cluster) FailoverRM(t testing.TB) string {
	t.Helper()
	return c.mustControl(t, "failover-rm")
}

// StopNM stops NodeManager i (0-based); it returns once the RM has its
// node SHUTDOWN. Its containers are killed.
func (c *Cluster) StopNM(t testing.TB, i int) string {
	t.Helper()
	return c.mustControl(t, "stop-nm", strconv.Itoa(i))
}

// StartNM starts a new NodeManager in stopped slot i and returns its node
// id (host:port) once the RM has it RUNNING. NodeManagers bind port 0, so
// it is a new node, not the stopped one back.
func (c *Cluster) StartNM(t testing.TB, i int) string {
	t.Helper()
	out := c.mustControl(t, "start-nm", strconv.Itoa(i))
	_, rest, ok := strings.Cut(out, "as a new node ")
	if !ok {
		t.Fatalf("start-nm %d printed %q, want it to name the new node", i, out)
	}
	return strings.Fields(rest)[0]
}

// Decommission decommissions NodeManager i gracefully, as `yarn rmadmin
// -refreshNodes -g` would with timeout (whole seconds; 0: the cluster's
// default); it returns once the RM has the node DECOMMISSIONING (or already
// DECOMMISSIONED).
func (c *Cluster) Decommission(t testing.TB, i int, timeout time.Duration) string {
	t.Helper()
	args := []string{strconv.Itoa(i)}
	if timeout > 0 {
		args = append(args, strconv.Itoa(int(timeout.Seconds())))
	}
	return c.mustControl(t, "decommission", args...)
}
