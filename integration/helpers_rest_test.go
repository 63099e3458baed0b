package integration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// Helpers: the ResourceManager's REST API, decoded as every supported
// Hadoop writes it: an application's record, its containers, the
// containers running on the cluster, the RMs' HA states.

// oneOrMany decodes a list from the RM's REST API as every Hadoop writes
// it: Hadoop 3.5 (Jersey 2) writes a one-element list as a JSON array,
// Hadoop 3.3 and 3.4 (Jersey 1's JAXB JSON) as the element alone.
type oneOrMany[T any] []T

func (l *oneOrMany[T]) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '[' {
		return json.Unmarshal(b, (*[]T)(l))
	}
	var one T
	if err := json.Unmarshal(b, &one); err != nil {
		return err
	}
	*l = oneOrMany[T]{one}
	return nil
}

// flexInt decodes a number from the RM's REST API as every Hadoop writes
// it: Jersey 1 (Hadoop 3.3, 3.4) writes a JAXB map's values as strings.
type flexInt int

func (n *flexInt) UnmarshalJSON(b []byte) error {
	if s, err := strconv.Unquote(string(b)); err == nil {
		b = []byte(s)
	}
	v, err := strconv.Atoi(string(bytes.TrimSpace(b)))
	if err != nil {
		return fmt.Errorf("not a number: %s", b)
	}
	*n = flexInt(v)
	return nil
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

// container is what the RM's REST API says of a running container.
type container struct {
	ID, Node                                string
	Priority, VCores, GPUs, FPGAs, MemoryMB int
}

// appContainers lists the running containers of an application's first
// attempt, from the RM's REST API.
func appContainers(t *testing.T, c *testcluster.Cluster, app string) []container {
	t.Helper()
	attempt := "appattempt_" + strings.TrimPrefix(app, "application_") + "_000001"
	resp, err := http.Get("http://" + c.RMWebAddress + "/ws/v1/cluster/apps/" + app + "/appattempts/" + attempt + "/containers")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil // not yet known to the RM, or already gone
	}
	type entry struct {
		Key   string  `json:"key"`
		Value flexInt `json:"value"`
	}
	type rmContainer struct {
		ID                 string   `json:"containerId"`
		Node               string   `json:"nodeId"`
		AllocatedMB        flexInt  `json:"allocatedMB"`
		Priority           flexInt  `json:"priority"`
		AllocatedVCores    flexInt  `json:"allocatedVCores"`
		AllocatedResources struct { // a JAXB map
			Entry oneOrMany[entry] `json:"entry"`
		} `json:"allocatedResources"`
	}
	var got struct {
		Container oneOrMany[rmContainer] `json:"container"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("containers of %s: %v\n%s", app, err, body)
	}
	var out []container
	for _, ct := range got.Container {
		k := container{ID: ct.ID, Node: ct.Node, Priority: int(ct.Priority), VCores: int(ct.AllocatedVCores), MemoryMB: int(ct.AllocatedMB)}
		for _, e := range ct.AllocatedResources.Entry {
			switch e.Key {
			case "yarn.io/gpu":
				k.GPUs = int(e.Value)
			case "yarn.io/fpga":
				k.FPGAs = int(e.Value)
			}
		}
		out = append(out, k)
	}
	return out
}

// whileSubmitRuns waits for cmd, a `spindle submit` whose output is buf,
// to end (failing the test, naming what, if it fails), and meanwhile
// hands seen each executor container of its application the RM shows
// running (the AM's, at priority 0, left out), every 100ms: the RM's own
// record of the containers a job ran in.
func whileSubmitRuns(t *testing.T, c *testcluster.Cluster, cmd *exec.Cmd, buf *syncBuffer, what string, seen func(container)) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s: %v\n%s", what, err, buf.String())
			}
			return
		case <-tick.C:
			if m := submittedID.FindStringSubmatch(buf.String()); m != nil {
				for _, ct := range appContainers(t, c, m[1]) {
					if ct.Priority > 0 {
						seen(ct)
					}
				}
			}
		}
	}
}

// rmNode is a node as the RM's REST API reports it.
type rmNode struct {
	ID            string `json:"id"`
	State         string `json:"state"`
	NumContainers int    `json:"numContainers"`
}

// clusterNodes reads every node, inactive ones included, from the RM's
// REST API.
func clusterNodes(t *testing.T, c *testcluster.Cluster) []rmNode {
	t.Helper()
	resp, err := http.Get("http://" + c.RMWebAddress + "/ws/v1/cluster/nodes")
	if err != nil {
		t.Fatalf("GET /ws/v1/cluster/nodes: %v", err)
	}
	defer resp.Body.Close()
	var got struct {
		Nodes struct {
			Node oneOrMany[rmNode] `json:"node"`
		} `json:"nodes"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatalf("decoding /ws/v1/cluster/nodes (%s): %v", resp.Status, err)
	}
	return got.Nodes.Node
}

// runningContainers sums numContainers over the RM's nodes.
func runningContainers(t *testing.T, c *testcluster.Cluster) int {
	t.Helper()
	n := 0
	for _, node := range clusterNodes(t, c) {
		n += node.NumContainers
	}
	return n
}

// waitContainers waits until between lo and hi containers run on the
// cluster.
func waitContainers(t *testing.T, c *testcluster.Cluster, lo, hi int, within time.Duration, what string) {
	t.Helper()
	waitFor(t, within, what+" to hold "+strconv.Itoa(lo)+" to "+strconv.Itoa(hi)+" containers", func() bool {
		n := runningContainers(t, c)
		return n >= lo && n <= hi
	})
}

// haStates reads each RM's HA state from its REST API, rm0's first.
func haStates(t *testing.T, c *testcluster.Cluster) string {
	t.Helper()
	var states []string
	for _, web := range c.RMWebAddresses {
		resp, err := http.Get("http://" + web + "/ws/v1/cluster/info")
		if err != nil {
			t.Fatalf("GET %s/ws/v1/cluster/info: %v", web, err)
		}
		var got struct {
			ClusterInfo struct {
				HAState string `json:"haState"`
			} `json:"clusterInfo"`
		}
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("decoding %s/ws/v1/cluster/info (%s): %v", web, resp.Status, err)
		}
		states = append(states, got.ClusterInfo.HAState)
	}
	return strings.Join(states, " ")
}
