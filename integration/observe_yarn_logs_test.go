package integration

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// Hadoop's own `yarn logs -applicationId`, run on an ended application,
// shows what Spindle wrote where YARN's log aggregation finds it: the
// AM's log in the AM's container, and a task's stdout, under the task
// attempt's file name, in the container of the executor the AM launched
// for it. Not in the YARN suite: aggregation is the NodeManagers' and
// LogsCLI's, the same on every Hadoop line.
func TestObserveYarnLogsShowTheAMLogAndATasksStdout(t *testing.T) {
	c := testcluster.Get(t)
	spindleBinary(t) // built before the clock starts
	begun := time.Now()
	marker := fmt.Sprintf("yarn-logs-marker-%d", time.Now().UnixNano())
	spec := writeSpec(t, "name: yarn-logs\nstages:\n  - {name: s, tasks: 1, command: \"echo "+marker+"\"}\n")
	out, err := spindleOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.instances=1",
		"--conf", "spindle.executor.memory=512m", spec)
	if err != nil {
		t.Fatalf("submit: %v\n%s", err, out)
	}
	m := submittedID.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no application id in the output:\n%s", out)
	}
	app := m[1]
	ended := time.Now()
	text, err := c.YarnLogs(app, 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the job took %s; yarn logs had its logs %s after it ended", ended.Sub(begun).Round(time.Millisecond), time.Since(ended).Round(time.Millisecond))
	logs, err := testcluster.ParseYarnLogs(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}

	amContainer := "container_" + strings.TrimPrefix(app, "application_") + "_01_000001"
	amLog, ok := aggregated(logs, amContainer, "am.stderr")
	if !ok {
		t.Fatalf("yarn logs shows no am.stderr of %s; it shows %s", amContainer, listed(logs))
	}
	registered := regexp.MustCompile(`level=info msg="registered with the ResourceManager" app=` + app + ` `)
	if !registered.MatchString(amLog) {
		t.Errorf("the AM's log from yarn logs has no line matching %s:\n%s", registered, amLog)
	}
	launched := regexp.MustCompile(`msg="launching executor" app=\S+ attempt=\S+ container=(container_\S+)`).FindAllStringSubmatch(amLog, -1)
	if len(launched) != 1 {
		t.Fatalf("the AM's log names %d executors launched, want 1:\n%s", len(launched), amLog)
	}
	stdout, ok := aggregated(logs, launched[0][1], "job0-stage0-task0-attempt0.stdout")
	if !ok {
		t.Fatalf("yarn logs shows no job0-stage0-task0-attempt0.stdout of %s; it shows %s", launched[0][1], listed(logs))
	}
	if stdout != marker+"\n" {
		t.Errorf("the task's stdout from yarn logs is %q, want %q", stdout, marker+"\n")
	}
}

// aggregated is the content of file of container in logs.
func aggregated(logs []testcluster.ContainerLog, container, file string) (string, bool) {
	for _, l := range logs {
		if l.Container == container && l.File == file {
			return l.Content, true
		}
	}
	return "", false
}

// listed names every container's files in logs, for a failure message.
func listed(logs []testcluster.ContainerLog) string {
	var names []string
	for _, l := range logs {
		names = append(names, l.Container+"/"+l.File)
	}
	return fmt.Sprintf("%d files: %s", len(names), strings.Join(names, " "))
}
