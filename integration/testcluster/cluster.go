package testcluster

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Cluster is a running mini cluster, as described by DIR/cluster.env.
type Cluster struct {
	Dir     string // its state, client configuration and logs
	ConfDir string // usable as HADOOP_CONF_DIR

	HadoopVersion string
	NodeManagers  int
	GPUsPerNode   int
	FPGAsPerNode  int    // yarn.io/fpga, a second countable resource type
	RPCProtection string // hadoop.rpc.protection
	// LogAggregation: NodeManagers upload ended applications' logs to
	// HDFS, where `yarn logs` (YarnLogs) finds them (LOG_AGGREGATION=1).
	LogAggregation bool

	RMAddress          string // ApplicationClientProtocol, host:port
	RMSchedulerAddress string // ApplicationMasterProtocol, host:port
	RMWebAddress       string // REST API and web UI, host:port
	DefaultFS          string // hdfs://host:port
	NameNodeAddress    string // host:port

	// NodeIDs are the NodeManagers' node ids (host:port) as they started,
	// in the index order the knobs use (NODE_ATTRIBUTES, NODE_LABELS).
	NodeIDs []string

	// With an HA pair (RMS=2), each RM's addresses, rm0's first; with
	// one RM, its addresses alone. RMAddress and the like are rm0's.
	RMAddresses, RMSchedulerAddresses, RMWebAddresses []string

	// On a Kerberized cluster: the clients' krb5.conf, and a user
	// principal with its keytab.
	Krb5Config string
	Principal  string
	Keytab     string

	owned bool // started by this process, so stopped by it
}

// startTimeout covers a first run, where Maven downloads Hadoop.
const startTimeout = 15 * time.Minute

// Config picks a cluster other than the default one; zero fields take the
// environment's knobs (NODEMANAGERS, GPUS_PER_NODE, FPGAS_PER_NODE) or
// Hadoop's defaults.
type Config struct {
	// RPCProtection sets hadoop.rpc.protection: "integrity" or "privacy"
	// make token-authenticated connections wrap every packet.
	RPCProtection string
	// Kerberos runs a KDC and secures the cluster with it.
	Kerberos bool
	// TokenMaxLifetime and TokenRenewInterval, when set, shorten the
	// delegation tokens' lives (whole seconds).
	TokenMaxLifetime, TokenRenewInterval time.Duration
	// Preemption gives the cluster two queues, default and high, and the
	// capacity scheduler's preemption monitor (PREEMPTION=1).
	Preemption bool
	// RMs, when 2, starts an HA pair of ResourceManagers (RMS=2), rm0
	// active; failover is manual (FailoverRM).
	RMs int
	// Placement enables placement constraints, node attributes and node
	// labels (PLACEMENT, NODE_ATTRIBUTES, NODE_LABELS): one such cluster
	// for every placement test, since each cluster costs CI a minute.
	Placement Placement
	// Apart, when set, gives a cluster apart from the one of the same
	// settings, shared by the tests naming the same Apart: for tests that
	// leave a cluster changed in ways others would trip on. After an RM
	// restart, say, container ids carry the RM's epoch
	// (container_e01_...), which tests reading logs by container id do
	// not expect.
	Apart string
}

// StartedPrefix begins the line GetWith logs when it has started a
// cluster, naming it and the time it took.
const StartedPrefix = "testcluster: started the "

// String names the cluster cfg asks for by what sets it apart:
// "default", or e.g. "Kerberos privacy".
func (cfg Config) String() string {
	var parts []string
	add := func(on bool, s string) {
		if on {
			parts = append(parts, s)
		}
	}
	add(cfg.Kerberos, "Kerberos")
	add(cfg.RPCProtection != "", cfg.RPCProtection)
	add(cfg.TokenMaxLifetime > 0 || cfg.TokenRenewInterval > 0, "short-token")
	add(cfg.Preemption, "preemption")
	add(cfg.RMs > 1, "RM HA")
	add(cfg.Placement != (Placement{}), "placement")
	add(cfg.Apart != "", "apart ("+cfg.Apart+")")
	if len(parts) == 0 {
		return "default"
	}
	return strings.Join(parts, " ")
}

// Placement is where a cluster lets containers go: zero values keep
// Hadoop's defaults (no placement handler, no attributes, no labels).
type Placement struct {
	// Handler is "processor" (placement-processor) or "scheduler", the
	// RM's yarn.resourcemanager.placement-constraints.handler.
	Handler string
	// NodeAttributes sets centralized node attributes, "I:name=value,...":
	// NodeManager I gets rm.yarn.io/name=value.
	NodeAttributes string
	// NodeLabels, "I:label,...", adds each label to the cluster, puts it
	// on NodeManager I (exclusive) and lets the queues use all of it.
	NodeLabels string
}

// started is one cluster of the process, started on first use.
type started struct {
	once    sync.Once
	cluster *Cluster
	err     error
}

var (
	mu       sync.Mutex
	clusters = map[Config]*started{}
)

// Main runs the tests of a package that uses Get and stops its clusters
// after them. Call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	mu.Lock()
	defer mu.Unlock()
	for _, s := range clusters {
		c := s.cluster
		if c == nil || !c.owned {
			continue
		}
		if err := c.stop(); err != nil {
			fmt.Fprintln(os.Stderr, "testcluster:", err)
			if code == 0 {
				code = 1
			}
		}
		if code == 0 {
			os.RemoveAll(c.Dir)
		} else {
			fmt.Fprintf(os.Stderr, "testcluster: the cluster's files and logs are kept in %s\n", c.Dir)
		}
	}
	os.Exit(code)
}

// Get returns the process's default cluster, starting it on first use.
func Get(t testing.TB) *Cluster {
	t.Helper()
	return GetWith(t, Config{})
}

// GetWith returns the process's cluster configured as cfg, starting it on
// first use; tests asking for the same Config share it.
func GetWith(t testing.TB, cfg Config) *Cluster {
	t.Helper()
	mu.Lock()
	s, ok := clusters[cfg]
	if !ok {
		s = &started{}
		clusters[cfg] = s
	}
	mu.Unlock()
	s.once.Do(func() {
		began := time.Now()
		if s.cluster, s.err = start(cfg); s.err == nil && s.cluster.owned {
			// Where CI's time goes: make test's summary lists these.
			t.Logf("%s%s cluster for %s in %s", StartedPrefix, cfg, t.Name(), time.Since(began).Round(time.Second/10))
		}
	})
	if s.err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the mini cluster (%s) did not start: %v", wantedVersion(), s.err)
		}
		t.Skipf("the mini cluster (%s) did not start (with CI=true this fails): %v", wantedVersion(), s.err)
	}
	c := s.cluster
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("failed on Hadoop %s; tail of the mini cluster's logs in %s:\n%s", c.HadoopVersion, c.Dir, LogTail(c.Dir, 30))
		}
	})
	return c
}

// wantedVersion names the Hadoop minicluster.sh starts: HADOOP_VERSION's,
// or its default.
func wantedVersion() string {
	if v := os.Getenv("HADOOP_VERSION"); v != "" {
		return "Hadoop " + v
	}
	return "minicluster.sh's default Hadoop"
}

func start(cfg Config) (*Cluster, error) {
	if dir := os.Getenv("SPINDLE_MINICLUSTER_DIR"); dir != "" && cfg == (Config{}) {
		if out, err := exec.Command(Script(), "status", dir).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("SPINDLE_MINICLUSTER_DIR=%s: the cluster there is not up: %s", dir, bytes.TrimSpace(out))
		}
		return Load(dir)
	}
	dir, err := os.MkdirTemp("", "spindle-cluster-")
	if err != nil {
		return nil, err
	}
	ports, err := PortEnv()
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(), ports...)
	env = append(env, "MINICLUSTER_OWNER_PID="+strconv.Itoa(os.Getpid()))
	if cfg.RPCProtection != "" {
		env = append(env, "RPC_PROTECTION="+cfg.RPCProtection)
	}
	if cfg.Kerberos {
		env = append(env, "KERBEROS=1")
	}
	if cfg.TokenMaxLifetime > 0 {
		env = append(env, fmt.Sprintf("TOKEN_MAX_LIFETIME_S=%d", int(cfg.TokenMaxLifetime.Seconds())))
	}
	if cfg.TokenRenewInterval > 0 {
		env = append(env, fmt.Sprintf("TOKEN_RENEW_INTERVAL_S=%d", int(cfg.TokenRenewInterval.Seconds())))
	}
	if cfg.Preemption {
		env = append(env, "PREEMPTION=1")
	}
	if cfg.RMs > 0 {
		env = append(env, fmt.Sprintf("RMS=%d", cfg.RMs))
	}
	if p := cfg.Placement; p != (Placement{}) {
		env = append(env, "PLACEMENT="+cmp.Or(p.Handler, "disabled"), "NODE_ATTRIBUTES="+p.NodeAttributes, "NODE_LABELS="+p.NodeLabels)
	}
	printed, err := Start(dir, env)
	if err != nil {
		return nil, err
	}
	c, err := Load(dir)
	if err != nil {
		return nil, err
	}
	// What a user of a Kerberized cluster copies from its output must be
	// what the cluster uses.
	for key, want := range map[string]string{"HADOOP_CONF_DIR": c.ConfDir, "KRB5_CONFIG": c.Krb5Config,
		"SPINDLE_TEST_PRINCIPAL": c.Principal, "SPINDLE_TEST_KEYTAB": c.Keytab} {
		if got := printed[key]; got != want || (cfg.Kerberos && want == "") {
			return nil, fmt.Errorf("minicluster.sh printed %s=%s but cluster.env says %q", key, got, want)
		}
	}
	c.owned = true
	return c, nil
}

// Start runs `minicluster.sh start DIR` with env and returns the
// KEY=VALUE lines it printed; its last line must name HADOOP_CONF_DIR.
func Start(dir string, env []string) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, Script(), "start", dir)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("minicluster.sh start %s: %v\n%s%s", dir, err, stdout.Bytes(), stderr.Bytes())
	}
	lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "HADOOP_CONF_DIR=") {
		return nil, fmt.Errorf("minicluster.sh start: last line is %q, want HADOOP_CONF_DIR=...", last)
	}
	printed := map[string]string{}
	for _, l := range lines {
		if k, v, ok := strings.Cut(l, "="); ok {
			printed[k] = v
		}
	}
	return printed, nil
}

func (c *Cluster) stop() error {
	out, err := exec.Command(Script(), "stop", c.Dir).CombinedOutput()
	if err != nil {
		return fmt.Errorf("minicluster.sh stop %s: %v\n%s", c.Dir, err, out)
	}
	return nil
}

// Load describes the cluster running in dir from DIR/cluster.env, which
// the harness writes just before it declares itself ready: for a test that
// starts a cluster of its own with Start.
func Load(dir string) (*Cluster, error) {
	path := filepath.Join(dir, "cluster.env")
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	kv := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want KEY=VALUE, got %q", path, n, sc.Text())
		}
		kv[k] = v
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	c := &Cluster{
		Dir:                dir,
		ConfDir:            kv["HADOOP_CONF_DIR"],
		HadoopVersion:      kv["HADOOP_VERSION"],
		RMAddress:          kv["RM_ADDRESS"],
		RMSchedulerAddress: kv["RM_SCHEDULER_ADDRESS"],
		RMWebAddress:       kv["RM_WEBAPP_ADDRESS"],
		DefaultFS:          kv["FS_DEFAULT_FS"],
		NameNodeAddress:    kv["NAMENODE_ADDRESS"],
		RPCProtection:      kv["RPC_PROTECTION"],
		LogAggregation:     kv["LOG_AGGREGATION"] == "1",
		Krb5Config:         kv["KRB5_CONFIG"],
		Principal:          kv["SPINDLE_TEST_PRINCIPAL"],
		Keytab:             kv["SPINDLE_TEST_KEYTAB"],
	}
	if ids := kv["NODE_IDS"]; ids != "" {
		c.NodeIDs = strings.Split(ids, ",")
	}
	c.RMAddresses = []string{c.RMAddress}
	c.RMSchedulerAddresses = []string{c.RMSchedulerAddress}
	c.RMWebAddresses = []string{c.RMWebAddress}
	if kv["RMS"] == "2" {
		c.RMAddresses = append(c.RMAddresses, kv["RM1_ADDRESS"])
		c.RMSchedulerAddresses = append(c.RMSchedulerAddresses, kv["RM1_SCHEDULER_ADDRESS"])
		c.RMWebAddresses = append(c.RMWebAddresses, kv["RM1_WEBAPP_ADDRESS"])
	}
	for key, dst := range map[string]*int{"NODEMANAGERS": &c.NodeManagers, "GPUS_PER_NODE": &c.GPUsPerNode, "FPGAS_PER_NODE": &c.FPGAsPerNode} {
		if *dst, err = strconv.Atoi(kv[key]); err != nil {
			return nil, fmt.Errorf("%s: %s=%q is not a number", path, key, kv[key])
		}
	}
	for key, v := range map[string]string{"HADOOP_CONF_DIR": c.ConfDir, "RM_ADDRESS": c.RMAddress,
		"RM_WEBAPP_ADDRESS": c.RMWebAddress, "FS_DEFAULT_FS": c.DefaultFS} {
		if v == "" {
			return nil, fmt.Errorf("%s: no %s", path, key)
		}
	}
	return c, nil
}
