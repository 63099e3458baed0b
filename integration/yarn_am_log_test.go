package integration

import (
	"encoding/base64"
	"encoding/hex"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
)

// The ApplicationMaster's log, where `yarn logs` finds it, tells an
// operator what happened: its registration, the allocations, each
// executor's launch, the stage's start and end, how the application ended; the executors' logs tell
// of their registration and their tasks; and neither holds the
// application secret, which the AM and executors have in their
// credentials.
func TestYarnApplicationMasterLogTellsWhatHappened(t *testing.T) {
	c := testcluster.Get(t)
	spec := writeSpec(t, "name: yarn-logged\nstages:\n  - {name: s, tasks: 4, command: \"sleep 4\"}\n")
	cmd, buf := startOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.instances=2", "--conf", "spindle.executor.memory=512m", spec)
	defer cmd.Process.Kill()

	// While it runs, read the secret from the AM container's credentials
	// (gone once the application has ended).
	var app string
	var secret []byte
	for deadline := time.Now().Add(time.Minute); secret == nil; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never found the AM's credentials:\n%s", buf.String())
		}
		m := submittedID.FindStringSubmatch(buf.String())
		if m == nil {
			continue
		}
		app = m[1]
		amContainer := regexp.MustCompile(`/` + regexp.QuoteMeta(app) + `/container_\d+_\d+_01_000001/container_tokens$`)
		for _, f := range findUnder(c.Dir, amContainer) {
			if creds, err := credentials.ReadFile(f); err == nil {
				if s, ok := creds.FindSecret(executor.SecretAlias); ok {
					secret = s
				}
			}
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("submit: %v\n%s", err, buf.String())
	}
	// The client sees the application end once the AM has unregistered,
	// which the AM logs just after: give it that moment.
	amLogPath := amFilePath(t, c, app, "am.stderr")
	log := readLogUntil(t, amLogPath, `msg="unregistered`)
	// Every AM line names the application and its attempt, the first.
	attempt := "appattempt_" + strings.TrimPrefix(app, "application_") + "_000001"
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`level=info msg="registered with the ResourceManager" app=` + app + ` attempt=` + attempt + ` .*tracking_url=`),
		regexp.MustCompile(`level=info msg="asking the ResourceManager for containers" app=` + app + ` asks="1:2"`),
		regexp.MustCompile(`level=info msg="containers allocated" allocated=\d+ app=` + app),
		regexp.MustCompile(`level=info msg="stage started: 4 tasks" app=` + app + ` attempt=` + attempt + ` job=yarn-logged stage=s`),
		regexp.MustCompile(`level=info msg="stage succeeded: 4 tasks in \S+" app=` + app + ` attempt=` + attempt + ` job=yarn-logged stage=s`),
		regexp.MustCompile(`level=info msg="job succeeded: 4 tasks`),
		regexp.MustCompile(`level=info msg="unregistered: job yarn-logged succeeded" app=` + app + ` attempt=` + attempt + ` final_status=APP_SUCCEEDED`),
	} {
		if !want.MatchString(log) {
			t.Errorf("the AM log has no line matching %s", want)
		}
	}
	launched := regexp.MustCompile(`msg="launching executor" app=\S+ attempt=\S+ container=(container_\S+)`).FindAllStringSubmatch(log, -1)
	registered := regexp.MustCompile(`msg="executor registered: [^"]*" app=\S+ attempt=\S+ executor=(container_\S+)`).FindAllStringSubmatch(log, -1)
	if len(launched) != 2 || len(registered) != 2 {
		t.Errorf("%d executors launched and %d registered in the log, want 2 and 2", len(launched), len(registered))
	}
	noSecret(t, "the AM log", log, secret)
	if t.Failed() {
		t.Logf("AM log %s:\n%s", amLogPath, log)
	}

	// Each executor's log, beside the AM's: its registration, its tasks'
	// ends, the shutdown; no secret either.
	execLogs := findUnder(c.Dir, regexp.MustCompile(`/`+regexp.QuoteMeta(app)+`/container_\d+_\d+_01_00000[2-9]/executor\.stderr$`))
	if len(execLogs) != 2 {
		t.Fatalf("%d executor logs for %s, want 2: %q", len(execLogs), app, execLogs)
	}
	tasks := 0
	for _, f := range execLogs {
		log, container := readLogUntil(t, f, `msg="the driver shut the executor down"`), filepath.Base(filepath.Dir(f))
		for _, want := range []*regexp.Regexp{
			regexp.MustCompile(`level=info msg="registered with the driver" app=` + app + ` cores=1 driver=\S+ executor=` + container),
			regexp.MustCompile(`level=info msg="the driver shut the executor down" app=` + app + ` executor=` + container),
		} {
			if !want.MatchString(log) {
				t.Errorf("%s has no line matching %s", f, want)
			}
		}
		ended := regexp.MustCompile(`level=info msg="task ended" app=` + app + ` duration=\S+ executor=` + container + ` job=yarn-logged stage=s state=SUCCEEDED task=job0-stage0-task\d-attempt0`)
		tasks += len(ended.FindAllString(log, -1))
		noSecret(t, f, log, secret)
		if t.Failed() {
			t.Logf("executor log %s:\n%s", f, log)
		}
	}
	if tasks != 4 {
		t.Errorf("the executors' logs tell of %d tasks that succeeded, want 4", tasks)
	}
}

// noSecret fails t if log holds secret, raw or in a common encoding.
func noSecret(t *testing.T, what, log string, secret []byte) {
	t.Helper()
	for _, enc := range []string{string(secret), hex.EncodeToString(secret), base64.StdEncoding.EncodeToString(secret), base64.RawURLEncoding.EncodeToString(secret)} {
		if strings.Contains(log, enc) {
			t.Errorf("%s holds the application secret", what)
		}
	}
}
