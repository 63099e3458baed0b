package settings

import (
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/deploy/config"
)

// UI is how an application shows itself: its web UI, and its event log
// (docs/ui.md).
type UI struct {
	Enabled bool
	// Port is local mode's loopback port (0: any free one).
	Port   int
	Limits history.Limits
	// EventLog says whether to keep one; EventLogDir is
	// spindle.eventLog.dir as set ("": the default for the master).
	EventLog    bool
	EventLogDir string
	// Retention is how many ended applications' event logs the
	// directory keeps, and for how long.
	Retention history.Retention
}

// UISettings reads the spindle.ui.* and spindle.eventLog.* keys.
func UISettings(conf *config.Config) (UI, error) {
	s := Read(conf)
	u := UI{Enabled: s.Bool("spindle.ui.enabled"), Port: s.Int("spindle.ui.port"),
		Limits: history.Limits{RetainedJobs: s.Int("spindle.ui.retainedJobs"), RetainedTasks: s.Int("spindle.ui.retainedTasks"),
			RetainedAttempts: s.Int("spindle.ui.retainedAttempts")},
		EventLog: s.Bool("spindle.eventLog.enabled"), EventLogDir: s.String("spindle.eventLog.dir"),
		Retention: history.Retention{MaxApps: s.Int("spindle.eventLog.maxApps"), MaxAge: s.Duration("spindle.eventLog.maxAge")}}
	return u, s.Err()
}
