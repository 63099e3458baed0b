package integration

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// Helpers: reading files and logs: what tasks wrote, the AM's container
// logs, and the ResourceManager's own logs.

// readFile is path's content, failing t when it cannot be read.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readLines reads path's lines, each split into its fields.
func readLines(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, strings.Fields(sc.Text()))
	}
	return lines
}

// findUnder returns the files under dir whose path matches re.
func findUnder(dir string, re *regexp.Regexp) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && re.MatchString(p) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// readLogUntil reads the log at path once it holds last, the line its
// process writes last, or after 30s without.
func readLogUntil(t *testing.T, path, last string) string {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), last) || time.Now().After(deadline) {
			return string(b)
		}
	}
}

// between returns the text of s between open and the next close.
func between(t *testing.T, s, open, close string) string {
	t.Helper()
	_, rest, ok := strings.Cut(s, open)
	inner, _, ok2 := strings.Cut(rest, close)
	if !ok || !ok2 {
		t.Fatalf("%q: want a part between %q and %q", s, open, close)
	}
	return inner
}

// amLog is the session AM's log (am.stderr in its container's log
// directory on the mini cluster).
func amLog(t *testing.T, c *testcluster.Cluster, appID string) string {
	t.Helper()
	var all strings.Builder
	for _, p := range findUnder(c.Dir, regexp.MustCompile(regexp.QuoteMeta(appID)+`.*/am\.stderr$`)) {
		b, _ := os.ReadFile(p)
		all.Write(b)
	}
	return all.String()
}

// amFilePath is the path of file name in the log directory of
// application app's first AM container.
func amFilePath(t *testing.T, c *testcluster.Cluster, app, name string) string {
	t.Helper()
	// After an RM restart container ids carry its epoch: container_e01_...
	re := regexp.MustCompile(`/` + regexp.QuoteMeta(app) + `/container_(?:e\d+_)?\d+_\d+_01_000001/` + regexp.QuoteMeta(name) + `$`)
	files := findUnder(c.Dir, re)
	if len(files) != 1 {
		t.Fatalf("%d %s files of %s's AM under %s, want 1", len(files), name, app, c.Dir)
	}
	return files[0]
}

// amFile reads a file of application app's AM container's log directory.
func amFile(t *testing.T, c *testcluster.Cluster, app, name string) string {
	t.Helper()
	return readFile(t, amFilePath(t, c, app, name))
}

// amSummary is the job's summary, which application app's AM prints to
// its am.stdout once it has unregistered: the submitter may have seen the
// application end before.
func amSummary(ctx context.Context, t *testing.T, c *testcluster.Cluster, app string) string {
	t.Helper()
	for {
		if s := amFile(t, c, app, "am.stdout"); strings.Contains(s, "task logs:") {
			return s
		}
		wait(ctx, t, app+"'s summary in its AM's am.stdout")
	}
}

// checkRolledLog fails t unless log rolled over, keeping exactly
// maxFiles old files beside it (log.1, ...), none over maxBytes.
func checkRolledLog(t *testing.T, log string, maxBytes int64, maxFiles int) {
	t.Helper()
	files, _ := filepath.Glob(log + "*")
	var sizes []string
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > maxBytes {
			t.Errorf("%s: %d bytes, over spindle.log.maxBytes (%d)", f, fi.Size(), maxBytes)
		}
		sizes = append(sizes, fmt.Sprintf("%s %d", filepath.Base(f), fi.Size()))
	}
	if len(files) != 1+maxFiles {
		t.Errorf("%s: %s; want it and %d old files (it must have rolled over, and kept no more)", log, strings.Join(sizes, ", "), maxFiles)
	}
}

// rmReleasedNotKilled holds the RM's log to what the AM did with the
// containers preempted from application app: RMContainerImpl has each
// go from RUNNING to RELEASED, on the AM's allocate (an IPC handler's
// thread), and none to KILLED, as one the RM took back would; the RM
// took back none of app's (RMAppAttemptMetrics' "Non-AM container
// preempted"), and the application's summary, as the RM closes it,
// counts none.
func rmReleasedNotKilled(t *testing.T, c *testcluster.Cluster, app string, victims map[string]bool) {
	t.Helper()
	summaryLine := regexp.MustCompile(`RMAppManager\$ApplicationSummary: appId=` + app + `,.*`)
	var log string
	// The RM writes the summary as it closes the application, which may
	// come a moment after its client saw the end.
	waitFor(t, 30*time.Second, "the RM's summary of "+app, func() bool {
		b, err := os.ReadFile(filepath.Join(c.Dir, "logs", "resourcemanager.log"))
		if err != nil {
			t.Fatal(err)
		}
		log = string(b)
		return summaryLine.MatchString(log)
	})
	for id := range victims {
		released := regexp.MustCompile(`\[IPC Server handler \d+ on [^\]]*\] rmcontainer\.RMContainerImpl: ` + id + ` Container Transitioned from RUNNING to RELEASED`)
		if !released.MatchString(log) {
			t.Errorf("the RM's log does not have %s released by the AM (RUNNING to RELEASED on its allocate)", id)
		}
		if killed := id + " Container Transitioned from RUNNING to KILLED"; strings.Contains(log, killed) {
			t.Errorf("the RM's log has %q: the RM killed it", killed)
		}
	}
	attempt := "appattempt_" + strings.TrimPrefix(app, "application_") + "_000001"
	for _, l := range regexp.MustCompile(`Non-AM container preempted, current appAttemptId=`+attempt+`, containerId=\S+`).FindAllString(log, -1) {
		t.Errorf("the RM's log: %s", l)
	}
	summary := summaryLine.FindString(log)
	if !strings.Contains(summary, ",preemptedNonAMContainers=0,") {
		t.Errorf("the RM's summary of %s counts containers preempted, or is missing: %q", app, summary)
	}
}

// auditedContainers reads the RM's own record of the containers it
// allocated to app: the audit log's "AM Allocated Container" lines
// (rm-audit.log, the harness's appender for RMAuditLogger), the AM's
// container, the attempt's first, left out.
func auditedContainers(t *testing.T, c *testcluster.Cluster, app string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(c.Dir, "logs", "rm-audit.log"))
	if err != nil {
		t.Fatalf("the RM's audit log: %v", err)
	}
	defer f.Close()
	amContainer := "container_" + strings.TrimPrefix(app, "application_") + "_01_000001"
	var got []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if !strings.Contains(l, "OPERATION=AM Allocated Container") || !strings.Contains(l, "APPID="+app+"\t") {
			continue
		}
		_, rest, ok := strings.Cut(l, "CONTAINERID=")
		if !ok {
			t.Fatalf("an allocation without a container id in the RM's audit log: %q", l)
		}
		id, _, _ := strings.Cut(rest, "\t")
		if id != amContainer {
			got = append(got, id)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

// containerLogDir is container's log directory, under its NodeManager's.
func containerLogDir(t *testing.T, c *testcluster.Cluster, app, container string) string {
	t.Helper()
	dirs := findUnder(c.Dir, regexp.MustCompile(`/`+regexp.QuoteMeta(app)+`/`+regexp.QuoteMeta(container)+`/executor\.stderr$`))
	if len(dirs) != 1 {
		t.Fatalf("the log directory of %s: found %v", container, dirs)
	}
	return dirs[0]
}
