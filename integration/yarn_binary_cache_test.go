package integration

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

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

func sha256File(t *testing.T, name string) string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// The spindle binary is staged once per content in the user's cache on
// fs.defaultFS and reused: a second submission of an unchanged binary
// uploads no binary (the NameNode's audit log says what was created), the
// cached copy is not rewritten, and an application's own staging
// directory never holds it; a changed binary is uploaded once, beside.
func TestYarnSecondSubmissionReusesTheStagedBinary(t *testing.T) {
	c := testcluster.Get(t)
	user := os.Getenv("USER")
	if user == "" {
		user = "root"
	}
	root := fmt.Sprintf("/user/%s/.spindle-cache-test-%d", user, time.Now().UnixNano())
	cacheDir := root + "/cache"
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
	cached := cacheDir + "/spindle-" + sha256File(t, bin)
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
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	tail := make([]byte, 16)
	rand.Read(tail)
	if err := os.WriteFile(changed, append(data, tail...), 0o755); err != nil {
		t.Fatal(err)
	}
	third := submitWith(changed)
	if !strings.Contains(third, "uploaded the binary to the cache") {
		t.Errorf("a changed binary is not uploaded anew:\n%s", third)
	}
	if _, err := fs.Stat(cacheDir + "/spindle-" + sha256File(t, changed)); err != nil {
		t.Errorf("the changed binary's cached copy: %v", err)
	}
	if _, err := fs.Stat(cached); err != nil {
		t.Errorf("the first copy is gone (applications may still use it): %v", err)
	}
	fs.RemoveAll(root)
}
