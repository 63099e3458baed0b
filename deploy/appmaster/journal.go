package appmaster

import (
	"errors"
	"os"
	"path"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
)

// journalStore is where the AM keeps its journal (am/journal): journal/
// in the application's staging directory, which the next attempt, on
// whichever node, finds, its segments' names carrying this attempt's
// number (appMaster.Attempt). The function returned closes it. The
// journal is files there, written through colinmarc/hdfs, on a cluster
// without Kerberos or by an AM logged in with a shipped keytab. With
// delegation tokens only, which that client cannot use, it is kept in
// the NameNode alone, in extended attributes (staging.XAttrSegments)
// over Spindle's own NameNode client (docs/reliability.md). Every
// attempt of an application chooses alike: they share its settings.
// There is none with spindle.yarn.am.journal false, nor when the AM's
// own attempt number does not read.
func journalStore(c container, conf *config.Config, login amLogin, log logrus.FieldLogger) (journal.Store, func()) {
	none := func(err error, why string) (journal.Store, func()) {
		log.WithError(err).Warn(why + ": if this attempt fails, the next starts the work over")
		return nil, func() {}
	}
	dir, ok := os.LookupEnv("SPINDLE_STAGING_DIR")
	if !ok {
		return nil, func() {}
	}
	if on, err := conf.Bool("spindle.yarn.am.journal"); err == nil && !on {
		log.Warn("no journal (spindle.yarn.am.journal=false): if this attempt fails, the next starts the work over")
		return nil, func() {}
	}
	if _, err := ownAttempt(); err != nil {
		return none(err, "no journal, without this attempt's number to write it under")
	}
	dir = path.Join(dir, "journal")
	var store journal.Store
	var closeStore func()
	var err error
	switch method, _ := c.hconf.Authentication(); {
	case method == hadoopconf.AuthKerberos && login.keytab && login.id == nil:
		return none(errors.New("the login with the shipped keytab failed"), "no journal")
	case method == hadoopconf.AuthKerberos && !login.keytab:
		store, closeStore, err = xattrJournal(c, dir)
		log.Info("with delegation tokens only, the journal is kept in the NameNode's extended attributes")
	default:
		store, closeStore, err = fileJournal(c, login, dir)
	}
	if err != nil {
		return none(err, "no journal")
	}
	return store, closeStore
}

// fileJournal keeps the journal in files in dir, written through
// colinmarc/hdfs: as the application's user, or logged in.
func fileJournal(c container, login amLogin, dir string) (journal.Store, func(), error) {
	st, err := staging.New(c.hconf, c.user, login.id)
	if err != nil {
		return nil, nil, err
	}
	store, err := st.Segments(dir)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return store, func() { st.Close() }, nil
}

// xattrJournal keeps the journal in dir with the NameNode alone,
// authenticated with the application's delegation tokens.
func xattrJournal(c container, dir string) (journal.Store, func(), error) {
	nn, err := tokenNameNode(c.hconf, c.user, c.delegationTokens())
	if err != nil {
		return nil, nil, err
	}
	store, err := staging.NewXAttrSegments(nn, c.hconf, dir)
	if err != nil {
		nn.Close()
		return nil, nil, err
	}
	return store, func() { nn.Close() }, nil
}
