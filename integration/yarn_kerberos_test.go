package integration

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/kerberos"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// hadoopJava runs a class of Hadoop's own (the harness's classpath, after
// the cluster's client configuration, as `hadoop` puts HADOOP_CONF_DIR
// first) in a task: a real Hadoop client, which finds its delegation
// tokens in HADOOP_TOKEN_FILE_LOCATION as every YARN application's code
// does.
func hadoopJava(t *testing.T, c *testcluster.Cluster) string {
	t.Helper()
	root := filepath.Dir(filepath.Dir(testcluster.Script()))
	cp, err := os.ReadFile(filepath.Join(root, "integration", "minicluster", "target", "hadoop-"+c.HadoopVersion, "classpath.txt"))
	if err != nil {
		t.Fatalf("the harness's classpath: %v", err)
	}
	return fmt.Sprintf("java -Xmx256m -cp %s:%s -Djava.security.krb5.conf=%s", c.ConfDir, strings.TrimSpace(string(cp)), c.Krb5Config)
}

// A GPU job submitted with a keytab stages to HDFS under Kerberos, and a
// task reads a file on HDFS with nothing but the tokens it was given.
func TestKerberosKeytabJobReadsHDFSWithItsTokens(t *testing.T) {
	for _, protection := range kerberosProtections {
		t.Run(protection, func(t *testing.T) {
			k := kerberizedCluster(t, protection)
			input := fmt.Sprintf("/user/%s/kerberos-input-%d.txt", kerberos.ShortName(k.c.Principal), time.Now().UnixNano())
			k.writeHDFS(t, input, "read-with-a-delegation-token")
			out := filepath.Join(t.TempDir(), "out")
			spec := writeSpec(t, fmt.Sprintf(`name: kerberos-keytab
stages:
  - name: gpu
    tasks: 4
    resources: {cpus: 1, gpus: 1}
    command: "echo gpu $CUDA_VISIBLE_DEVICES >> %[1]s"
  - name: read
    tasks: 1
    command: "%[2]s org.apache.hadoop.fs.FsShell -cat %[3]s%[4]s >> %[1]s"
`, out, hadoopJava(t, k.c), k.c.DefaultFS, input))
			args := append([]string{"submit", "--master", "yarn", "--conf", "spindle.executor.instances=2",
				"--conf", "spindle.executor.resource.gpu.amount=2", "--conf", "spindle.executor.memory=512m"}, k.keytabConf()...)
			o, err := k.run(t, 4*time.Minute, append(args, spec)...)
			if err != nil || !strings.Contains(o, "FINISHED") {
				t.Fatalf("submit with a keytab: %v\n%s", err, o)
			}
			b, _ := os.ReadFile(out)
			if got := strings.Count(string(b), "gpu "); got != 4 {
				t.Errorf("%d GPU tasks ran, want 4:\n%s", got, b)
			}
			if !strings.Contains(string(b), "read-with-a-delegation-token") {
				t.Errorf("the task did not read the HDFS file with its tokens; its output:\n%s", b)
			}
		})
	}
}

// A job submitted with the ticket cache kinit wrote succeeds; status,
// list and kill work with it too.
func TestKerberosCCacheJobAndCommands(t *testing.T) {
	for _, protection := range kerberosProtections {
		t.Run(protection, func(t *testing.T) {
			k := kerberizedCluster(t, protection)
			k.kinit(t)
			spec := writeSpec(t, `name: kerberos-ccache
stages:
  - name: s
    tasks: 2
    resources: {cpus: 1, gpus: 1}
    command: "true"
`)
			o, err := k.run(t, 3*time.Minute, "submit", "--master", "yarn", "--conf", "spindle.executor.instances=1",
				"--conf", "spindle.executor.resource.gpu.amount=1", "--conf", "spindle.executor.memory=512m", spec)
			if err != nil || !strings.Contains(o, "FINISHED") {
				t.Fatalf("submit with kinit's ticket cache: %v\n%s", err, o)
			}
			m := regexp.MustCompile(`submitted (application_\d+_\d+)`).FindStringSubmatch(o)
			if m == nil {
				t.Fatalf("no application id in:\n%s", o)
			}
			if o, err := k.run(t, time.Minute, "status", m[1]); err != nil || !strings.Contains(o, "FINISHED") {
				t.Errorf("status under Kerberos: %v\n%s", err, o)
			}

			long := writeSpec(t, `name: kerberos-long
stages:
  - name: s
    tasks: 1
    command: "sleep 600"
`)
			o, err = k.run(t, 2*time.Minute, "submit", "--master", "yarn", "--no-wait", "--conf", "spindle.executor.instances=1", "--conf", "spindle.executor.memory=512m", long)
			if err != nil {
				t.Fatalf("submit --no-wait: %v\n%s", err, o)
			}
			m = regexp.MustCompile(`submitted (application_\d+_\d+)`).FindStringSubmatch(o)
			if m == nil {
				t.Fatalf("no application id in:\n%s", o)
			}
			if o, err := k.run(t, time.Minute, "list"); err != nil || !strings.Contains(o, m[1]) {
				t.Errorf("list under Kerberos does not show %s: %v\n%s", m[1], err, o)
			}
			if o, err := k.run(t, time.Minute, "kill", m[1]); err != nil || !strings.Contains(o, "KILLED") {
				t.Errorf("kill under Kerberos: %v\n%s", err, o)
			}
		})
	}
}

// Without a ticket a submission fails at once, saying it is Kerberos and
// what to do.
func TestKerberosSubmitWithoutTicketFailsFast(t *testing.T) {
	k := kerberizedCluster(t, "privacy")
	spec := writeSpec(t, "name: no-ticket\nstages:\n  - name: s\n    tasks: 1\n    command: \"true\"\n")
	start := time.Now()
	o, err := k.run(t, time.Minute, "submit", "--master", "yarn", spec)
	took := time.Since(start)
	if err == nil {
		t.Fatalf("a submission without a ticket succeeded:\n%s", o)
	}
	for _, want := range []string{"kerberos", "no Kerberos ticket", "run kinit", "spindle.kerberos.keytab"} {
		if !strings.Contains(o, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, o)
		}
	}
	if took > 10*time.Second {
		t.Errorf("the refusal took %s; a missing ticket is known before dialing anything", took)
	}
}

// An ApplicationMaster SIGKILLed mid-job on the Kerberized cluster
// leaves its work to the next attempt as on any cluster
// (TestFaultAMRestartKeepsTheWork), with its journal where its login
// lets it write one: with a keytab shipped, files written through
// colinmarc/hdfs logged in with it; with the delegation tokens only,
// extended attributes in the NameNode. Attempt 2 takes the job over: no
// task that had succeeded runs again, the tasks running at the kill run
// on to their end, the tasks after it run in attempt 1's containers
// (kept), and none runs twice at once.
func TestKerberosAMKillKeepsTheWork(t *testing.T) {
	k := kerberizedCluster(t, "privacy")
	k.kinit(t) // the tokens-only submission's login
	for _, tc := range []struct {
		name  string
		login []string // the submission's flags that ship a keytab
		said  string   // what attempt 1's AM says of its journal
	}{
		{"keytab", k.keytabConf(), ""},
		{"tokens-only", nil, "with delegation tokens only, the journal is kept in the NameNode's extended attributes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const tasks = 30
			dir := t.TempDir()
			// Three executors of two one-GPU slots, the AM beside them.
			args := append([]string{"submit", "--master", "yarn", "--conf", "spindle.executor.instances=3", "--conf", "spindle.executor.cores=2",
				"--conf", "spindle.executor.resource.gpu.amount=2", "--conf", "spindle.executor.memory=512m"}, tc.login...)
			cmd, out := startSpindle(t, k.env, append(args, recordingSpec(t, dir, "kerberos-am-"+tc.name, tasks, 2))...)
			defer cmd.Process.Kill()
			var app string
			waitFor(t, 3*time.Minute, "eight tasks to succeed", func() bool {
				m := submittedID.FindStringSubmatch(out.String())
				b, _ := os.ReadFile(filepath.Join(dir, "record"))
				if m != nil {
					app = m[1]
				}
				return m != nil && strings.Count(string(b), " ok\n") >= 8
			})
			kill := time.Now()
			syscall.Kill(amProcess(t, app), syscall.SIGKILL)
			if _, err := exited(t, cmd, 3*time.Minute); err != nil || !strings.Contains(out.String(), app+" FINISHED") {
				t.Fatalf("the submitter: %v; want the job to succeed in attempt 2\n%s", err, out.String())
			}
			log := amLog(t, k.c, app)
			if !regexp.MustCompile(`previous attempt's work".*\bjobs=1\b`).MatchString(log) || !strings.Contains(log, tc.said) ||
				strings.Contains(log, "no journal") || strings.Contains(log, "is refused") {
				t.Errorf("the AMs' logs do not show attempt 2 resuming the job from the journal (%q):\n%s", tc.said, log)
			}
			runs := readRuns(t, dir)
			if missing := finished(runs, tasks); len(missing) > 0 {
				t.Errorf("tasks %v never succeeded", missing)
			}
			running, broken := keptRunning(runs, kill)
			for _, bad := range slices.Concat(succeededAgain(runs, kill), broken, twiceAtOnce(runs, time.Now())) {
				t.Error(bad)
			}
			if running == 0 {
				t.Error("no task was running at the kill: nothing shows the running ones were kept")
			}
			after := 0
			for _, r := range runs {
				if r.Start.After(kill) {
					after++
					if !strings.Contains(r.Container, "_01_") {
						t.Errorf("%v: after the AM died a task ran in a container of attempt 2; want attempt 1's, kept", r)
					}
				}
			}
			if after == 0 {
				t.Errorf("no task started after the AM died; the test proves nothing (%d runs)", len(runs))
			}
			t.Logf("%s: %d runs, %d started after the AM died; %s", tc.name, len(runs), after, figures(runs, tasks, kill, time.Now()))
		})
	}
}

// Short delegation token lives for the session test: renewed every 30 s,
// dead after 90 s whatever the renewals.
const (
	shortRenewInterval = 30 * time.Second
	shortMaxLifetime   = 90 * time.Second
)

// A session started with a keytab outlives several renewal intervals and
// its tokens' max lifetime: its AM fetches fresh tokens and pushes them to
// its executors, whose tasks still read HDFS at the end. A client
// without the client-to-AM token is refused, while spindle jobs, which
// brings it, is served.
func TestKerberosSessionOutlivesItsTokens(t *testing.T) {
	for _, protection := range kerberosProtections {
		t.Run(protection, func(t *testing.T) {
			// Each waits out its tokens' lives, on a cluster of its own:
			// side by side, the test takes one wait, not two.
			t.Parallel()
			k := kerberizedWith(t, testcluster.Config{Kerberos: true, RPCProtection: protection,
				TokenRenewInterval: shortRenewInterval, TokenMaxLifetime: shortMaxLifetime})
			c := k.c
			// The session's clients use kinit's ticket; the session itself
			// the keytab, to log in again for fresh tokens.
			k.kinit(t)
			input := fmt.Sprintf("/user/%s/session-input-%d.txt", kerberos.ShortName(c.Principal), time.Now().UnixNano())
			k.writeHDFS(t, input, "still-readable")
			u := k.sessionUser(t)
			started := time.Now()
			id := u.startSession(append([]string{"--master", "yarn", "--name", "kerberos-session", "--conf", "spindle.executor.instances=1",
				"--conf", "spindle.executor.memory=512m"}, k.keytabConf()...)...)
			// Beside it, a session with kinit's ticket alone, which cannot
			// fetch new tokens: it must end, saying why, before they die.
			// Its tokens are fetched as it is submitted, after shortStarted
			// (the first session's start can take long on a loaded machine).
			shortStarted := time.Now()
			short := u.startSession("--master", "yarn", "--name", "kerberos-session-no-keytab", "--conf", "spindle.executor.instances=0")
			out := filepath.Join(t.TempDir(), "read")
			read := fmt.Sprintf("%s org.apache.hadoop.fs.FsShell -cat %s%s >> %s", hadoopJava(t, c), c.DefaultFS, input, out)
			// The session, its client and its tasks keep working across
			// renewals, and after the first tokens' max lifetime.
			for i, at := range []time.Duration{0, shortMaxLifetime / 2, shortMaxLifetime + 15*time.Second} {
				time.Sleep(time.Until(started.Add(at)))
				if o, err := u.run("submit", "--session", id, "--name", fmt.Sprintf("read-%d", i), "--tasks", "1", "--", "sh", "-c", read); err != nil {
					t.Fatalf("job %d, %s into the session: %v\n%s", i, time.Since(started).Round(time.Second), err, o)
				}
			}
			b, _ := os.ReadFile(out)
			if got := strings.Count(string(b), "still-readable"); got != 3 {
				t.Errorf("the tasks read the HDFS file %d times of 3:\n%s", got, b)
			}
			if n := strings.Count(amLog(t, c, id), "sent fresh delegation tokens to the executors"); n < 3 {
				t.Errorf("the AM sent fresh tokens %d times in %s; want one every %s at least", n, time.Since(started).Round(time.Second), shortRenewInterval*3/4)
			}

			// The session without a keytab ended before its tokens' max
			// lifetime (they were issued after shortStarted), and says why
			// to its clients.
			const why = "ending before the delegation tokens expire: the application has no keytab"
			app, err := rmApp(t, c, short)
			finished, _ := app.FinishedTime.Int64()
			if err != nil || app.State != "FINISHED" || !strings.Contains(app.Diagnostics, why) || time.UnixMilli(finished).After(shortStarted.Add(shortMaxLifetime)) {
				t.Errorf("the session without a keytab, %s into the sessions: %+v, %v; want it FINISHED before %s saying %q",
					time.Since(started).Round(time.Second), app, err, shortMaxLifetime, why)
			}
			if o, err := u.run("jobs", short); err == nil || !strings.Contains(o, why) {
				t.Errorf("spindle jobs of the ended session: %v\n%s", err, o)
			}

			// A client holding the session's secret but no client-to-AM
			// token is refused; spindle jobs brings one.
			dir, _ := u.sessionRecord(id)
			secret, err := os.ReadFile(filepath.Join(dir, "secret"))
			if err != nil {
				t.Fatal(err)
			}
			conn := sessionConn(t, k, id, secret)
			conn.Send(&wire.Envelope{Message: &wire.Envelope_ListJobs{ListJobs: &wire.ListJobs{}}})
			if m, err := conn.Recv(); err != nil || !strings.Contains(m.GetRejected().GetReason(), "client-to-AM token") {
				t.Errorf("a request without a client-to-AM token: %v, %v; want it refused", m, err)
			}
			if o, err := u.run("jobs", id); err != nil || strings.Count(o, "SUCCEEDED") != 3 {
				t.Errorf("spindle jobs under Kerberos: %v\n%s", err, o)
			}
		})
	}
}

// sessionConn dials session appID's client port with secret, finding it
// in the application report as the test principal.
func sessionConn(t *testing.T, k kerberized, appID string, secret []byte) *wire.Conn {
	t.Helper()
	// Its own cluster's settings, not the process's: the subtests run
	// side by side, each on a cluster of its own.
	env := map[string]string{"HADOOP_CONF_DIR": k.c.ConfDir, "KRB5_CONFIG": k.c.Krb5Config}
	lookup := func(key string) (string, bool) {
		if v, ok := env[key]; ok {
			return v, true
		}
		return os.LookupEnv(key)
	}
	conn, err := yarnapp.ConnectWith(kerberos.Login{Principal: k.c.Principal, Keytab: k.c.Keytab}, lookup)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	id, err := yarn.ParseApplicationID(appID)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := conn.RM.GetApplicationReport(ctx, &hadoopyarn.GetApplicationReportRequestProto{ApplicationId: id})
	if err != nil {
		t.Fatal(err)
	}
	if r.GetApplicationReport().GetClientToAmToken() == nil {
		t.Error("the RM gave the application's owner no client-to-AM token on a secure cluster")
	}
	addr := net.JoinHostPort(r.GetApplicationReport().GetHost(), strconv.Itoa(int(r.GetApplicationReport().GetRpcPort())))
	wc, err := wire.Dial(ctx, "tcp", addr, secret)
	if err != nil {
		t.Fatalf("dialing the session at %s: %v", addr, err)
	}
	t.Cleanup(func() { wc.Close() })
	return wc
}
