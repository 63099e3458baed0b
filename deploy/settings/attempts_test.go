package settings

import (
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// A one-job application keeps the keys' defaults (2 attempts, every
// failure counting); a session defaults to 10 attempts, failures
// counting for an hour; whatever the settings set wins in either.
func TestAppAttemptsDefaultsForASession(t *testing.T) {
	for _, tc := range []struct {
		set      []string
		session  bool
		max      int
		validity time.Duration
		keep     bool
	}{
		{nil, false, 2, 0, true},
		{nil, true, SessionMaxAppAttempts, SessionFailuresValidity, true},
		{[]string{"spindle.yarn.maxAppAttempts=2"}, true, 2, SessionFailuresValidity, true},
		{[]string{"spindle.yarn.am.attemptFailuresValidityInterval=0"}, true, SessionMaxAppAttempts, 0, true},
		{[]string{"spindle.yarn.am.attemptFailuresValidityInterval=5s", "spindle.yarn.maxAppAttempts=3"}, false, 3, 5 * time.Second, true},
		{[]string{"spindle.yarn.am.keepContainers=false"}, true, SessionMaxAppAttempts, SessionFailuresValidity, false},
	} {
		conf, err := config.Load(nil, tc.set)
		if err != nil {
			t.Fatal(err)
		}
		a, err := AppAttempts(conf, tc.session)
		want := Attempts{Max: tc.max, FailuresValidity: tc.validity, KeepContainers: tc.keep}
		if err != nil || a != want {
			t.Errorf("%q, session %v: %+v, %v; want %+v", tc.set, tc.session, a, err, want)
		}
	}
}
