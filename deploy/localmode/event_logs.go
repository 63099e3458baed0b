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
// that have had their time, at most once every CleanEvery (surveying a
// hundred logs takes tens of milliseconds, which a burst of short
// local jobs would each pay) and beside the application. release waits
// for the cleaning, so that the process never exits halfway through
// removing a log (half a log reads as unreadable, which no cleaner
// removes). Neither is a reason not to run: a failure is logged.
func (d *EventLogDir) open(ctx context.Context, appID string, log logrus.FieldLogger) (release func()) {
	f, err := lockRunning(filepath.Join(d.Root, appID))
	if err != nil {
		log.WithError(err).Warn("event log: could not mark it as running's; a cleaner may take it for a dead application's")
	}
	cleaned := make(chan struct{})
	go func() {
		defer close(cleaned)
		if !cleaningDue(d.Root, time.Now()) {
			return
		}
		if _, removed, err := CleanEventLogs(ctx, d.Root, d.Retention, time.Now()); err != nil {
			log.WithError(err).WithField("dir", d.Root).Warn("event log: could not clean the directory of old applications' logs")
		} else if len(removed) > 0 {
			log.WithField("removed", removed).Debug("event log: removed old applications' logs")
		}
	}()
	return func() {
		<-cleaned
		if f != nil {
			f.Close()
		}
	}
}

// CleanEvery is how often a local driver cleans the directory of event
// logs as it starts; `spindle history` cleans whenever it lists.
const CleanEvery = time.Hour

// cleanedMark is the file in the directory of event logs whose
// modification time says when a driver last cleaned it.
const cleanedMark = ".cleaned"

// cleaningDue says whether the directory root was last cleaned by a
// driver CleanEvery or more before now, and if so marks it cleaned now:
// of drivers starting together one cleans, the others see the mark.
func cleaningDue(root string, now time.Time) bool {
	mark := filepath.Join(root, cleanedMark)
	if fi, err := os.Stat(mark); err == nil && now.Sub(fi.ModTime()) < CleanEvery {
		return false
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return true
	}
	if err := os.WriteFile(mark, nil, 0o600); err == nil {
		os.Chtimes(mark, now, now)
	}
	return true
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
