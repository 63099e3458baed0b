package appmaster

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/namenode"
	"github.com/spindle-yarn/spindle/yarnpb/namenode/namenodetest"
)

// journalContainer is an AM container of attempt 2 whose staging
// directory is dir, on a cluster whose fs.defaultFS is fsURI, with
// Kerberos or not, holding an HDFS delegation token.
func journalContainer(t *testing.T, fsURI, dir string, kerberos bool) container {
	t.Setenv("SPINDLE_STAGING_DIR", dir)
	t.Setenv("CONTAINER_ID", "container_1700000000000_0001_02_000001")
	hconf := hadoopconf.New(hadoopconf.Env{})
	hconf.Set("fs.defaultFS", fsURI)
	if kerberos {
		hconf.Set("hadoop.security.authentication", "kerberos")
	}
	creds := &credentials.Credentials{}
	creds.AddToken(credentials.Token{Alias: "nn", Kind: namenode.DelegationTokenKind, Identifier: []byte("id"), Password: []byte("pw")})
	return container{hconf: hconf, user: "alice", creds: creds}
}

// noSettings is the settings of an application that sets none.
func noSettings(t *testing.T) *config.Config {
	t.Helper()
	conf, err := config.Load(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return conf
}

func quietLog() logrus.FieldLogger {
	l := logrus.New()
	l.SetOutput(io.Discard)
	return l
}

// With delegation tokens only, on a Kerberos cluster, the AM keeps its
// journal in the NameNode's extended attributes, in journal/ of its
// staging directory, under its attempt's number.
func TestATokensOnlyAMJournalsInTheNameNode(t *testing.T) {
	nn := &namenodetest.NameNode{}
	c := journalContainer(t, "hdfs://"+nn.Start(t), "/user/alice/.spindle/application_1700000000000_0001", true)
	store, closeStore := journalStore(c, noSettings(t), amLogin{}, quietLog())
	defer closeStore()
	if _, ok := store.(*staging.XAttrSegments); !ok {
		t.Fatalf("journalStore = %T; want XAttrSegments", store)
	}
	if err := store.Write(context.Background(), "a0000000002-0000000000.seg", []byte("segment")); err != nil {
		t.Fatal(err)
	}
	seg := "/user/alice/.spindle/application_1700000000000_0001/journal/a0000000002-0000000000.seg"
	if !slices.Contains(nn.Paths(), seg) || len(nn.XAttrs(seg)) != 1 {
		t.Errorf("the NameNode holds %v; want %s with its attribute", nn.Paths(), seg)
	}
}

// Without Kerberos the journal is files in the staging directory, as it
// is with a keytab's login; a keytab whose login failed leaves the AM
// no journal, and says so.
func TestTheJournalsStoreFollowsTheLogin(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "application_1700000000000_0001")
	c := journalContainer(t, "file:///", dir, false)
	store, closeStore := journalStore(c, noSettings(t), amLogin{}, quietLog())
	closeStore()
	if _, ok := store.(*staging.Segments); !ok {
		t.Errorf("without Kerberos journalStore = %T, want staging's Segments", store)
	}
	c = journalContainer(t, "hdfs://127.0.0.1:1", dir, true)
	log, hook := logtest.NewNullLogger()
	store, closeStore = journalStore(c, noSettings(t), amLogin{keytab: true}, log)
	closeStore()
	if store != nil {
		t.Errorf("with a keytab whose login failed journalStore = %T, want none", store)
	}
	if e := hook.LastEntry(); e == nil || !strings.Contains(e.Message, "no journal") {
		t.Errorf("the AM did not say it keeps no journal: %v", e)
	}
}
