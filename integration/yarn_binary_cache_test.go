package integration

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// hdfsCreates lists the files created under prefix, from the NameNode's
// audit log (hdfs-audit.log, the harness's appender): HDFS's own record
// of every upload.
func hdfsCreates(t *testing.T, c *testcluster.Cluster, prefix string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(c.Dir, "logs", "hdfs-audit.log"))
	if err != nil {
		t.Fatalf("the NameNode's audit log: %v", err)
	}
	re := regexp.MustCompile(`\tcmd=create\tsrc=(` + regexp.QuoteMeta(prefix) + `\S*)\t`)
	var out []string
	for _, m := range re.FindAllStringSubmatch(string(b), -1) {
		out = append(out, m[1])
	}
	return out
}

// cachedCopy is where the binary cache under root keeps content.
func cachedCopy(root string, content []byte) string {
	sum := sha256.Sum256(content)
	return root + "/cache/spindle-" + hex.EncodeToString(sum[:])
}

// The spindle binary is staged once per content in the user's cache on
// fs.defaultFS and reused: a second submission of an unchanged binary
// uploads no binary (the NameNode's audit log says what was created), the
// cached copy is not rewritten, and an application's own staging
// directory never holds it; a changed binary is uploaded once, beside.
func TestYarnSecondSubmissionReusesTheStagedBinary(t *testing.T) {
	c := testcluster.Get(t)
	root := fmt.Sprintf("/user/%s/.spindle-cache-test-%d", yarnapp.User(os.LookupEnv), time.Now().UnixNano())
	spec := writeSpec(t, "name: cached\nstages:\n  - name: s\n    tasks: 1\n    command: \"true\"\n")
	submitWith := func(bin string) string {
		t.Helper()
		cmd := exec.Command(bin, "submit", "--master", "yarn", "--conf", "spindle.yarn.stagingDir="+root,
			"--conf", "spindle.executor.instances=1", "--conf", "spindle.executor.memory=256m", "--conf", "spindle.log.level=info", spec)
		cmd.Env = append(os.Environ(), "HADOOP_CONF_DIR="+c.ConfDir)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "FINISHED") {
			t.Fatalf("submit: %v\n%s", err, out)
		}
		return string(out)
	}
	bin := spindleBinary(t)
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	cached := cachedCopy(root, data)
	fs := hdfsClient(t, c)

	first := submitWith(bin)
	if !strings.Contains(first, "uploaded the binary to the cache") {
		t.Errorf("the first submission does not say it uploaded the binary:\n%s", first)
	}
	st, err := fs.Stat(cached)
	if err != nil {
		t.Fatalf("the cached copy %s: %v", cached, err)
	}
	if st.Mode().Perm() != 0o700 || st.Size() == 0 {
		t.Errorf("the cached copy is %v, %d bytes; want 0700 and the binary", st.Mode(), st.Size())
	}
	second := submitWith(bin)
	if !strings.Contains(second, "reusing the cached binary") {
		t.Errorf("the second submission does not say it reused the binary:\n%s", second)
	}
	if again, err := fs.Stat(cached); err != nil || !again.ModTime().Equal(st.ModTime()) {
		t.Errorf("the cached copy changed under the second submission: %v, %v → %v", err, st.ModTime(), again.ModTime())
	}
	creates := hdfsCreates(t, c, root+"/")
	binaries := 0
	for _, p := range creates {
		switch {
		case p == cached:
			binaries++
		case strings.HasSuffix(p, "/spindle"):
			t.Errorf("an application staged its own binary: %s", p)
		}
	}
	if binaries != 1 {
		t.Errorf("the binary was uploaded %d times in two submissions, want once:\n%s", binaries, strings.Join(creates, "\n"))
	}

	// A changed binary (bytes after the ELF image change nothing it
	// runs) is uploaded once more, under its own content's name.
	changed := filepath.Join(t.TempDir(), "spindle")
	tail := make([]byte, 16)
	rand.Read(tail)
	data = append(data, tail...)
	if err := os.WriteFile(changed, data, 0o755); err != nil {
		t.Fatal(err)
	}
	third := submitWith(changed)
	if !strings.Contains(third, "uploaded the binary to the cache") {
		t.Errorf("a changed binary is not uploaded anew:\n%s", third)
	}
	if _, err := fs.Stat(cachedCopy(root, data)); err != nil {
		t.Errorf("the changed binary's cached copy: %v", err)
	}
	if _, err := fs.Stat(cached); err != nil {
		t.Errorf("the first copy is gone (applications may still use it): %v", err)
	}
	fs.RemoveAll(root)
}
