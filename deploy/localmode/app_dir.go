package localmode

import (
	"os"
	"path/filepath"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/launcher/local"
)

// appDir makes a local application's directory (its executors'
// working directories and task logs) in this user's private directory
// under TMPDIR, first removing ended applications' directories older than
// spindle.worker.cleanup.appDataTtl.
func appDir(log logrus.FieldLogger, conf *config.Config, appID string) (*local.AppDir, error) {
	ttl, err := conf.Duration("spindle.worker.cleanup.appDataTtl")
	if err != nil {
		return nil, err
	}
	dir, err := local.UserDir(os.TempDir())
	if err != nil {
		return nil, err
	}
	if _, err := local.Prune(dir, ttl, time.Now()); err != nil {
		// Old logs left behind are no reason not to run.
		log.WithError(err).WithField("dir", dir).Warn("could not remove old applications' directories")
	}
	return local.NewAppDir(dir, appID)
}

// TaskFiles is the directory where local application appID's executors
// wrote their task files, for `spindle history` to serve them from as
// the live UI did; "" once it is gone (spindle.worker.cleanup.appDataTtl)
// or under another TMPDIR.
func TaskFiles(appID string) string {
	dir, err := local.UserDir(os.TempDir())
	if err != nil {
		return ""
	}
	path := filepath.Join(dir, appID)
	if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
		return ""
	}
	return path
}
