package integration

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/colinmarc/hdfs/v2"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// stagedFiles writes a binary-like executable and a job spec to a local
// directory, as `spindle submit` would ship them.
func stagedFiles(t *testing.T) ([]staging.File, [][]byte) {
	t.Helper()
	src := t.TempDir()
	bin := make([]byte, 300<<10+11)
	rand.Read(bin)
	spec := []byte("name: staged\nstages: []\n")
	binPath, specPath := filepath.Join(src, "spindle-linux-amd64"), filepath.Join(src, "job.yaml")
	if err := os.WriteFile(binPath, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(binPath, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(specPath, spec, 0o644); err != nil {
		t.Fatal(err)
	}
	return []staging.File{{Local: binPath, Name: "spindle"}, {Local: specPath, Name: "job.yaml"}}, [][]byte{bin, spec}
}

// stagerFor connects to the cluster's fs.defaultFS through the
// HADOOP_CONF_DIR it wrote, as `spindle submit` will.
func stagerFor(t *testing.T, c *testcluster.Cluster) *staging.Stager {
	t.Helper()
	conf, _ := clientConfig(t, c)
	st, err := staging.New(conf, userName(t), nil)
	if err != nil {
		t.Fatalf("staging.New: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestStagingUploadsDescribesAndRemoves stages onto the mini cluster's
// HDFS and checks every LocalResource against what HDFS itself reports.
func TestStagingUploadsDescribesAndRemoves(t *testing.T) {
	c := testcluster.Get(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	user := userName(t)
	st := stagerFor(t, c)
	files, contents := stagedFiles(t)
	dir := staging.StagingDir(staging.DefaultDir, user, fmt.Sprintf("application_%d_0001", time.Now().UnixNano()))
	if want := "/user/" + user + "/.spindle/"; !strings.HasPrefix(dir, want) {
		t.Fatalf("StagingDir = %s, want it under %s", dir, want)
	}

	res, err := st.Stage(ctx, dir, files)
	if err != nil {
		t.Fatalf("Stage: %v", err)
	}
	t.Cleanup(func() { st.Remove(context.Background(), dir) })

	// An independent client reads back what was staged.
	conf, _ := clientConfig(t, c)
	opts := hdfs.ClientOptionsFromConf(conf.HadoopConf())
	opts.User = user
	client, err := hdfs.NewClient(opts)
	if err != nil {
		t.Fatalf("connecting to HDFS at %v: %v", opts.Addresses, err)
	}
	defer client.Close()

	nn, err := url.Parse(c.DefaultFS)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := client.Stat(dir); err != nil || info.Mode().Perm() != 0o700 || !info.IsDir() {
		t.Fatalf("staging directory %s: %v, %v; want a directory with mode 0700", dir, info, err)
	}
	wantMode := []fs.FileMode{0o700, 0o600}
	if len(res) != len(files) {
		t.Fatalf("Stage returned %d resources for %d files", len(res), len(files))
	}
	for i, f := range files {
		key, r := res[i].GetKey(), res[i].GetValue()
		p := dir + "/" + f.Name
		if key != f.Name {
			t.Errorf("resource %d is %q, want %q", i, key, f.Name)
		}
		got, err := client.ReadFile(p)
		if err != nil {
			t.Fatalf("reading back %s: %v", p, err)
		}
		if !bytes.Equal(got, contents[i]) {
			t.Errorf("%s: read back %d bytes that differ from the %d staged", p, len(got), len(contents[i]))
		}
		info, err := client.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if r.GetSize() != info.Size() || r.GetTimestamp() != info.ModTime().UnixMilli() {
			t.Errorf("%s: LocalResource size %d timestamp %d; HDFS says %d and %d",
				p, r.GetSize(), r.GetTimestamp(), info.Size(), info.ModTime().UnixMilli())
		}
		if info.Mode().Perm() != wantMode[i] {
			t.Errorf("%s: mode %v, want %v", p, info.Mode().Perm(), wantMode[i])
		}
		u := r.GetResource()
		if u.GetScheme() != "hdfs" || u.GetHost() != nn.Hostname() || strconv.Itoa(int(u.GetPort())) != nn.Port() || u.GetFile() != p {
			t.Errorf("%s: URL %v, want hdfs://%s%s", key, u, nn.Host, p)
		}
		if r.GetType() != hadoopyarn.LocalResourceTypeProto_FILE || r.GetVisibility() != hadoopyarn.LocalResourceVisibilityProto_APPLICATION {
			t.Errorf("%s: %v %v, want FILE APPLICATION", key, r.GetType(), r.GetVisibility())
		}
	}

	for range 2 { // idempotent
		if err := st.Remove(ctx, dir); err != nil {
			t.Fatalf("Remove: %v", err)
		}
	}
	if _, err := client.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("stat %s after Remove: %v, want not-exist", dir, err)
	}
}

// TestStagingNodeManagerLocalizesTheFiles hands the staged files to a real
// NodeManager as an ApplicationMaster's LocalResources: it cannot fetch a
// file whose URL is wrong (an absent port reads as 0) and refuses one whose
// timestamp differs from HDFS's by even a millisecond. The AM's command
// checks the copies and exits 42 when they are right; it never registers,
// so the attempt fails and the RM's diagnostics carry that exit code.
func TestStagingNodeManagerLocalizesTheFiles(t *testing.T) {
	c := testcluster.Get(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rm := applicationClient(t, c)
	st := stagerFor(t, c)
	files, contents := stagedFiles(t)

	app, err := rm.GetNewApplication(ctx, &hadoopyarn.GetNewApplicationRequestProto{})
	if err != nil {
		t.Fatalf("getNewApplication: %v", err)
	}
	id := app.GetApplicationId()
	appID := fmt.Sprintf("application_%d_%04d", id.GetClusterTimestamp(), id.GetId())
	dir := staging.StagingDir("", userName(t), appID)
	res, err := st.Stage(ctx, dir, files)
	if err != nil {
		t.Fatalf("Stage: %v", err)
	}
	t.Cleanup(func() { st.Remove(context.Background(), dir) })

	check := fmt.Sprintf(`echo '%x  spindle' | sha256sum -c --status && test -x spindle && grep -qx 'name: staged' job.yaml && exit 42; ls -la; exit 43`,
		sha256.Sum256(contents[0]))
	_, err = rm.SubmitApplication(ctx, &hadoopyarn.SubmitApplicationRequestProto{ApplicationSubmissionContext: &hadoopyarn.ApplicationSubmissionContextProto{
		ApplicationId:   id,
		ApplicationName: proto.String("spindle-" + t.Name()),
		Queue:           proto.String("default"),
		ApplicationType: proto.String("SPINDLE"),
		MaxAppAttempts:  proto.Int32(1),
		AmContainerSpec: &hadoopyarn.ContainerLaunchContextProto{
			LocalResources: res,
			Command:        []string{check},
		},
		Resource: yarn.NewResource(128, 1, nil),
	}})
	if err != nil {
		t.Fatalf("submitApplication: %v", err)
	}
	for {
		rep, err := rm.GetApplicationReport(ctx, &hadoopyarn.GetApplicationReportRequestProto{ApplicationId: id})
		if err != nil {
			t.Fatalf("getApplicationReport: %v", err)
		}
		r := rep.GetApplicationReport()
		switch r.GetYarnApplicationState() {
		case hadoopyarn.YarnApplicationStateProto_FAILED, hadoopyarn.YarnApplicationStateProto_KILLED, hadoopyarn.YarnApplicationStateProto_FINISHED:
			if d := r.GetDiagnostics(); !strings.Contains(d, "exitCode: 42") {
				t.Fatalf("%s ended %v without the AM's exit code 42 (files localized and intact):\n%s", appID, r.GetYarnApplicationState(), d)
			}
			return
		}
		wait(ctx, t, appID+" to end")
	}
}
