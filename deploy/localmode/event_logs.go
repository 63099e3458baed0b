package localmode

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/staging"
)

// EventLogDir is the local directory of event logs
// (spindle.eventLog.dir) and what it keeps.
type EventLogDir struct {
	Root      string
	Retention history.Retention
}

// eventLogDir is where a local application's event log goes, nil when
// it keeps none (spindle.eventLog.enabled).
func eventLogDir(conf *config.Config) (*EventLogDir, error) {
	ui, err := settings.UISettings(conf)
	if err != nil || !ui.EventLog {
		return nil, err
	}
	root, err := staging.LocalEventLogRoot(ui.EventLogDir)
	if err != nil {
		return nil, err
	}
	return &EventLogDir{Root: root, Retention: ui.Retention}, nil
}

// runningMark is the file in a local application's event log directory
// that its driver holds locked while it runs: a cleaner leaves a log
// without an end alone while someone holds it.
const runningMark = ".running"

// open marks appID's log as running until release (or this process's
// end, however it ends), then cleans the directory of the others' logs
// that have had their time. Neither is a reason not to run: a failure
// is logged.
func (d *EventLogDir) open(ctx context.Context, appID string, log logrus.FieldLogger) (release func()) {
	release = func() {}
	dir := filepath.Join(d.Root, appID)
	f, err := lockRunning(dir)
	if err != nil {
		log.WithError(err).Warn("event log: could not mark it as running's; a cleaner may take it for a dead application's")
	} else {
		release = func() { f.Close() }
	}
	if _, removed, err := CleanEventLogs(ctx, d.Root, d.Retention, time.Now()); err != nil {
		log.WithError(err).WithField("dir", d.Root).Warn("event log: could not clean the directory of old applications' logs")
	} else if len(removed) > 0 {
		log.WithField("removed", removed).Debug("event log: removed old applications' logs")
	}
	return release
}

func lockRunning(dir string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, runningMark), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// logRunning says whether a driver holds the log's running mark.
func logRunning(dir string) bool {
	f, err := os.Open(filepath.Join(dir, runningMark))
	if err != nil {
		return false // none: a driver from before marks, or none ever
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return true
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

// CleanEventLogs cleans the local directory of event logs root by r
// and lists what it kept, the oldest first, with what it removed. A log
// without an end is a running application's while its driver holds its
// running mark.
func CleanEventLogs(ctx context.Context, root string, r history.Retention, now time.Time) (kept []staging.LoggedApp, removed []string, err error) {
	dir, err := staging.Local().EventLogs(root)
	if err != nil {
		return nil, nil, err
	}
	return dir.Tidy(ctx, r, now, func(id string) bool { return logRunning(filepath.Join(root, id)) })
}
