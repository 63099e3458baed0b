package integration

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// The AM registers a tracking URL serving the job's status; the RM's web
// proxy, where the application's tracking URL points, shows it.
func TestYarnTrackingURLShowsTheRunningJob(t *testing.T) {
	c := testcluster.Get(t)
	spec := writeSpec(t, "name: yarn-tracked\nstages:\n  - {name: s, tasks: 2, command: \"sleep 8\"}\n")
	cmd, buf := startOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.instances=1", "--conf", "spindle.executor.memory=512m", spec)
	defer cmd.Wait()
	defer cmd.Process.Kill()
	var page string
	for deadline := time.Now().Add(time.Minute); page == ""; {
		if time.Now().After(deadline) {
			t.Fatalf("no tracking page showed the job:\n%s", buf.String())
		}
		time.Sleep(200 * time.Millisecond)
		m := submittedID.FindStringSubmatch(buf.String())
		if m == nil {
			continue
		}
		url := appTrackingURL(t, c, m[1])
		if !strings.Contains(url, "/proxy/") {
			continue // not registered yet: the RM's own page
		}
		resp, err := http.Get(strings.TrimSuffix(url, "/") + "/status.txt")
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK && strings.Contains(string(b), "executors 1") {
			page = string(b)
		}
	}
	for _, want := range []string{"job yarn-tracked", "tasks 2: 0 succeeded, 1 running, 1 pending", "stage s: 1 waiting: ", "executors 1\n  container_"} {
		if !strings.Contains(page, want) {
			t.Errorf("the tracking page does not say %q:\n%s", want, page)
		}
	}
}
