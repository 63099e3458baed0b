package yarnapp

import (
	"testing"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// The submission asks YARN to keep containers across attempts unless
// told not to, and sends the failures' validity interval, in milliseconds,
// only when it is more than 0.
func TestAttemptPolicyFromSettings(t *testing.T) {
	for _, tc := range []struct {
		set      []string
		keep     bool
		validity int64 // -1: not sent
	}{
		{nil, true, -1},
		{[]string{"spindle.yarn.am.keepContainers=false"}, false, -1},
		{[]string{"spindle.yarn.am.attemptFailuresValidityInterval=1h"}, true, 3600000},
		{[]string{"spindle.yarn.am.attemptFailuresValidityInterval=1"}, true, 1},
		{[]string{"spindle.yarn.am.attemptFailuresValidityInterval=0"}, true, -1},
	} {
		conf, err := config.Load(nil, tc.set)
		if err != nil {
			t.Fatal(err)
		}
		s := &submission{conf: conf}
		if err := s.readAttemptPolicy(); err != nil {
			t.Fatalf("%q: %v", tc.set, err)
		}
		sub := &hadoopyarn.ApplicationSubmissionContextProto{}
		s.attemptPolicy(sub)
		if sub.GetKeepContainersAcrossApplicationAttempts() != tc.keep || sub.GetAttemptFailuresValidityInterval() != tc.validity {
			t.Errorf("%q: keep %v, validity %d; want %v, %d", tc.set, sub.GetKeepContainersAcrossApplicationAttempts(),
				sub.GetAttemptFailuresValidityInterval(), tc.keep, tc.validity)
		}
	}
}
