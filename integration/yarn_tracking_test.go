package integration

import (
	"encoding/json"
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

// appTrackingURL is the tracking URL the RM reports for app while it
// runs; "" otherwise.
func appTrackingURL(t *testing.T, c *testcluster.Cluster, app string) string {
	t.Helper()
	got, err := rmApp(t, c, app)
	if err != nil || got.State != "RUNNING" {
		return ""
	}
	return got.TrackingURL
}

// rmAppInfo is the part of the RM's REST record of an application the
// tests read.
type rmAppInfo struct {
	State       string `json:"state"`
	TrackingURL string `json:"trackingUrl"`
	Type        string `json:"applicationType"`
	Tags        string `json:"applicationTags"`
	Diagnostics string `json:"diagnostics"`
	// FinishedTime is in milliseconds since the epoch, 0 while it runs: a
	// number, or on 3.3 and 3.4 (Jersey 1) a string of one.
	FinishedTime json.Number `json:"finishedTime"`
}

// rmApp reads the RM's REST record of app.
func rmApp(t *testing.T, c *testcluster.Cluster, app string) (rmAppInfo, error) {
	t.Helper()
	resp, err := http.Get("http://" + c.RMWebAddress + "/ws/v1/cluster/apps/" + app)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct {
		App rmAppInfo `json:"app"`
	}
	err = json.NewDecoder(resp.Body).Decode(&got)
	return got.App, err
}
