package integration

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/user"
	"testing"
	"time"

	"github.com/colinmarc/hdfs/v2"
	"github.com/colinmarc/hdfs/v2/hadoopconf"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// rmNodes is the part of the ResourceManager's /ws/v1/cluster/nodes answer
// these tests read.
type rmNodes struct {
	Nodes struct {
		Node []struct {
			ID            string `json:"id"`
			State         string `json:"state"`
			TotalResource struct {
				ResourceInformations struct {
					ResourceInformation []struct {
						Name  string `json:"name"`
						Value int64  `json:"value"`
					} `json:"resourceInformation"`
				} `json:"resourceInformations"`
			} `json:"totalResource"`
		} `json:"node"`
	} `json:"nodes"`
}

func TestResourceManagerListsEveryNodeWithItsGPUs(t *testing.T) {
	c := testcluster.Get(t)
	client := &http.Client{Timeout: 30 * time.Second}
	req, err := http.NewRequest(http.MethodGet, "http://"+c.RMWebAddress+"/ws/v1/cluster/nodes", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("GET /ws/v1/cluster/nodes: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET /ws/v1/cluster/nodes: %s\n%s", resp.Status, body)
	}
	var got rmNodes
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatalf("decoding /ws/v1/cluster/nodes: %v", err)
	}

	running := 0
	for _, n := range got.Nodes.Node {
		if n.State != "RUNNING" {
			t.Errorf("node %s is %s, want RUNNING", n.ID, n.State)
			continue
		}
		running++
		gpus := int64(-1)
		for _, ri := range n.TotalResource.ResourceInformations.ResourceInformation {
			if ri.Name == "yarn.io/gpu" {
				gpus = ri.Value
			}
		}
		if gpus != int64(c.GPUsPerNode) {
			t.Errorf("node %s offers %d yarn.io/gpu, want %d", n.ID, gpus, c.GPUsPerNode)
		}
	}
	if running != c.NodeManagers {
		t.Errorf("%d running nodes, want NODEMANAGERS=%d", running, c.NodeManagers)
	}
}

func TestHDFSWriteReadDelete(t *testing.T) {
	c := testcluster.Get(t)
	// Reach HDFS exactly as Spindle will: through the HADOOP_CONF_DIR the
	// cluster wrote, not through addresses the test knows.
	conf, err := hadoopconf.Load(c.ConfDir)
	if err != nil {
		t.Fatalf("loading %s: %v", c.ConfDir, err)
	}
	opts := hdfs.ClientOptionsFromConf(conf)
	if len(opts.Addresses) == 0 {
		t.Fatalf("%s names no NameNode", c.ConfDir)
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	opts.User = u.Username
	client, err := hdfs.NewClient(opts)
	if err != nil {
		t.Fatalf("connecting to HDFS at %v: %v", opts.Addresses, err)
	}
	defer client.Close()

	dir := fmt.Sprintf("/tmp/spindle-it-%d", time.Now().UnixNano())
	path := dir + "/data.bin"
	// Several packets and more than one chunk checksum, so the data path is
	// really exercised, not just the NameNode.
	want := make([]byte, 3<<20+17)
	if _, err := rand.Read(want); err != nil {
		t.Fatal(err)
	}
	if err := client.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("mkdir %s: %v", dir, err)
	}
	w, err := client.Create(path)
	if err != nil {
		t.Fatalf("create %s: %v", path, err)
	}
	if _, err := w.Write(want); err != nil {
		t.Fatalf("write %s: %v", path, err)
	}
	// The NameNode may not yet have heard from the DataNode about the last
	// block: the library then says ErrReplicating and Close is to be
	// called again until it completes, as Hadoop's own client retries.
	for deadline := time.Now().Add(30 * time.Second); ; {
		err := w.Close()
		if err == nil {
			break
		}
		if !hdfs.IsErrReplicating(err) || time.Now().After(deadline) {
			t.Fatalf("close %s: %v", path, err)
		}
		time.Sleep(100 * time.Millisecond)
	}

	got, err := client.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("read back %d bytes that differ from the %d written", len(got), len(want))
	}

	if err := client.RemoveAll(dir); err != nil {
		t.Fatalf("remove %s: %v", dir, err)
	}
	if _, err := client.Stat(path); !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("stat %s after removing it: err = %v, want not-exist", path, err)
	}
}
