package integration

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/colinmarc/hdfs/v2"
	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/kerberos"
)

// Helpers: a Kerberized mini cluster and its users, logged in with MIT's
// kinit.

// kerberized is a Kerberized mini cluster at protection, and an
// environment for the spindle binary on it whose ticket cache is the
// test's own (empty until kinit writes it).
type kerberized struct {
	c     *testcluster.Cluster
	env   []string
	cache string // the FILE: ticket cache KRB5CCNAME names
}

// kerberizedCluster is the Kerberized cluster whose RPC protection
// (hadoop.rpc.protection) is protection.
func kerberizedCluster(t *testing.T, protection string) kerberized {
	t.Helper()
	return kerberizedWith(t, testcluster.Config{Kerberos: true, RPCProtection: protection})
}

// kerberizedWith is kerberizedCluster for a cluster of cfg (Kerberos set).
func kerberizedWith(t *testing.T, cfg testcluster.Config) kerberized {
	t.Helper()
	c := testcluster.GetWith(t, cfg)
	if c.Krb5Config == "" || c.Principal == "" || c.Keytab == "" {
		t.Fatalf("the Kerberized cluster names no krb5.conf, principal or keytab: %+v", c)
	}
	cache := filepath.Join(t.TempDir(), "krb5cc")
	env := append(os.Environ(), "HADOOP_CONF_DIR="+c.ConfDir, "KRB5_CONFIG="+c.Krb5Config, "KRB5CCNAME=FILE:"+cache)
	return kerberized{c: c, env: env, cache: cache}
}

// run runs the spindle binary with args on the Kerberized cluster.
func (k kerberized) run(t *testing.T, timeout time.Duration, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return runSpindle(ctx, t, k.env, args...)
}

// keytabConf is what logs spindle in with the test principal's keytab.
func (k kerberized) keytabConf() []string {
	return []string{"--conf", "spindle.kerberos.principal=" + k.c.Principal, "--conf", "spindle.kerberos.keytab=" + k.c.Keytab}
}

// kinit fills the test's ticket cache with MIT's kinit, as a user would.
func (k kerberized) kinit(t *testing.T) {
	t.Helper()
	kinit(t, k.env, k.c.Keytab, k.c.Principal)
}

// sessionUser is a user of sessions on the Kerberized cluster, logged in
// with the test's ticket cache.
func (k kerberized) sessionUser(t *testing.T) *sessionUser {
	return newSessionUser(t, "HADOOP_CONF_DIR="+k.c.ConfDir, "KRB5_CONFIG="+k.c.Krb5Config, "KRB5CCNAME=FILE:"+k.cache)
}

// hdfsAsUser is an HDFS client logged in as the test principal.
func (k kerberized) hdfsAsUser(t *testing.T) *hdfs.Client {
	t.Helper()
	id, err := kerberos.LogIn(kerberos.Login{Principal: k.c.Principal, Keytab: k.c.Keytab},
		func(key string) (string, bool) {
			if key == "KRB5_CONFIG" {
				return k.c.Krb5Config, true
			}
			return "", false
		})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(id.Close)
	cl, err := hdfs.NewClient(hdfs.ClientOptions{Addresses: []string{k.c.NameNodeAddress}, User: id.ShortName(),
		KerberosClient: id.Client(), KerberosServicePrincipleName: "hadoop/localhost"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl
}

// writeHDFS writes text to path as the test principal.
func (k kerberized) writeHDFS(t *testing.T, path, text string) {
	t.Helper()
	w, err := k.hdfsAsUser(t).Create(path)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(w, text)
	// colinmarc/hdfs asks to close again while the NameNode waits for the
	// block's replica to report.
	for err = w.Close(); hdfs.IsErrReplicating(err); err = w.Close() {
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// kinit logs principal in from keytab with MIT's kinit, into the ticket
// cache env's KRB5CCNAME names.
func kinit(t *testing.T, env []string, keytab, principal string) {
	t.Helper()
	path, err := exec.LookPath("kinit")
	if err != nil {
		t.Fatalf("kinit (Debian's krb5-user, which make test installs) is not on PATH: %v", err)
	}
	cmd := exec.Command(path, "-kt", keytab, principal)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kinit as %s: %v\n%s", principal, err, out)
	}
}

// kerberosProtections are the RPC protections (hadoop.rpc.protection)
// the Kerberos tests run at.
var kerberosProtections = []string{"privacy", "integrity"}
