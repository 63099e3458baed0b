package staging

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// DefaultEventLogDir is spindle.eventLog.dir's default on YARN: the
// submitting user's directory on fs.defaultFS, beside the staging
// directories, which outlives the application.
const DefaultEventLogDir = "/user/$USER/.spindle/events"

// EventLogDir is a YARN application's event log directory: template
// (DefaultEventLogDir when empty) with $USER and ${USER} replaced by
// user, then appID.
func EventLogDir(template, user, appID string) string {
	return appDir(template, DefaultEventLogDir, user, appID)
}

// EventLogRoot is the directory of YARN applications' event logs:
// EventLogDir's, without an application.
func EventLogRoot(template, user string) string {
	return EventLogDir(template, user, "")
}

// LocalEventLogDir is a local application's event log directory:
// template, or the user's state directory's events/ when empty, then
// appID.
func LocalEventLogDir(template, appID string) (string, error) {
	root, err := LocalEventLogRoot(template)
	if err != nil {
		return "", err
	}
	return filepath.Join(root, appID), nil
}

// LocalEventLogRoot is the directory of local applications' event logs:
// template, or the user's state directory's events/ when empty.
func LocalEventLogRoot(template string) (string, error) {
	if template == "" {
		state, err := StateDir()
		if err != nil {
			return "", err
		}
		template = filepath.Join(state, "events")
	}
	if !filepath.IsAbs(template) {
		return "", fmt.Errorf("spindle.eventLog.dir %q: want an absolute path", template)
	}
	return filepath.Clean(template), nil
}

// StateDir is the user's state directory of Spindle's: session records
// and local event logs, $XDG_STATE_HOME/spindle or
// ~/.local/state/spindle.
func StateDir() (string, error) {
	base := os.Getenv("XDG_STATE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", errors.Join(errors.New("the user's state directory"), err, errors.New("set XDG_STATE_HOME"))
		}
		base = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(base, "spindle"), nil
}
