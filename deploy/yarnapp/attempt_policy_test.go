package yarnapp

import (
	"testing"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// The submission asks YARN to keep containers across attempts unless
// told not to, and sends the failures' validity interval, in
// milliseconds, only when it is more than 0: a session's an hour unless
// set, a job's only when set.
func TestAttemptPolicyFromSettings(t *testing.T) {
	for _, tc := range []struct {
		set      []string
		session  bool
		keep     bool
		validity int64 // -1: not sent
	}{
		{nil, false, true, -1},
		{nil, true, true, 3600000},
		{[]string{"spindle.yarn.am.keepContainers=false"}, false, false, -1},
		{[]string{"spindle.yarn.am.attemptFailuresValidityInterval=1h"}, false, true, 3600000},
		{[]string{"spindle.yarn.am.attemptFailuresValidityInterval=1"}, false, true, 1},
		{[]string{"spindle.yarn.am.attemptFailuresValidityInterval=0"}, false, true, -1},
		{[]string{"spindle.yarn.am.attemptFailuresValidityInterval=0"}, true, true, -1},
	} {
		conf, err := config.Load(nil, tc.set)
		if err != nil {
			t.Fatal(err)
		}
		app := App{Job: &jobspec.Job{}}
		if tc.session {
			app = App{}
		}
		s := &submission{conf: conf, app: app, conn: &Connection{User: "u"}}
		if err := s.readSettings(); err != nil {
			t.Fatalf("%q: %v", tc.set, err)
		}
		sub := &hadoopyarn.ApplicationSubmissionContextProto{}
		s.attemptPolicy(sub)
		if sub.GetKeepContainersAcrossApplicationAttempts() != tc.keep || sub.GetAttemptFailuresValidityInterval() != tc.validity {
			t.Errorf("%q, session %v: keep %v, validity %d; want %v, %d", tc.set, tc.session, sub.GetKeepContainersAcrossApplicationAttempts(),
				sub.GetAttemptFailuresValidityInterval(), tc.keep, tc.validity)
		}
	}
}
