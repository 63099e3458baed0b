package config

import "testing"

// spindle.log.maxBytes is 0 (never roll) or at least 1k: exactly 1024 is
// taken, 1023 refused. spindle.log.maxFiles and the session's task file
// limits are 0 (for the latter: no limit) or more.
func TestLogRollKeysAtTheirLimits(t *testing.T) {
	for _, c := range []struct {
		setting string
		ok      bool
	}{
		{"spindle.log.maxBytes=0", true}, {"spindle.log.maxBytes=1024", true}, {"spindle.log.maxBytes=1k", true},
		{"spindle.log.maxBytes=1023", false}, {"spindle.log.maxBytes=-1", false}, {"spindle.log.maxBytes=1g", true},
		{"spindle.log.maxFiles=0", true}, {"spindle.log.maxFiles=-1", false}, {"spindle.log.maxFiles=10", true},
		{"spindle.session.taskLogs.maxJobs=0", true}, {"spindle.session.taskLogs.maxJobs=-1", false}, {"spindle.session.taskLogs.maxJobs=1", true},
		{"spindle.session.taskLogs.maxBytes=0", true}, {"spindle.session.taskLogs.maxBytes=-1", false}, {"spindle.session.taskLogs.maxBytes=1", true},
		{"spindle.session.taskLogs.maxBytes=10k", true},
	} {
		if _, err := Load(nil, []string{c.setting}); (err == nil) != c.ok {
			t.Errorf("%s: %v, accepted want %v", c.setting, err, c.ok)
		}
	}
}
