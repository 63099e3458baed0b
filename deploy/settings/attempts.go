package settings

import (
	"time"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// A session's defaults for its ApplicationMaster's attempts. A session
// runs for weeks, a team's work hanging on it: with one job's defaults
// (2 attempts, every failure counting) its second AM fault in all that
// time would end it. Failures an hour apart are not a crash loop; ten
// attempts bound one, should the cluster allow that many
// (yarn.resourcemanager.am.max-attempts caps them, 2 by default: then
// two failures within the hour end the session).
const (
	SessionMaxAppAttempts   = 10
	SessionFailuresValidity = time.Hour
)

// Attempts is how YARN is to treat the application's ApplicationMaster
// attempts (docs/reliability.md): the submission sends it, and each
// attempt judges by it whether it is the last.
type Attempts struct {
	// Max is the attempts asked for (spindle.yarn.maxAppAttempts); the
	// RM caps it at yarn.resourcemanager.am.max-attempts.
	Max int
	// FailuresValidity is how recent a failure must be to count against
	// Max (spindle.yarn.am.attemptFailuresValidityInterval); 0: every
	// failure counts.
	FailuresValidity time.Duration
	// KeepContainers has YARN keep the executors' containers across
	// attempts (spindle.yarn.am.keepContainers).
	KeepContainers bool
}

// AppAttempts reads Attempts: a session's (session set) takes
// SessionMaxAppAttempts and SessionFailuresValidity where its settings
// leave those keys unset.
func AppAttempts(conf *config.Config, session bool) (Attempts, error) {
	r := Read(conf)
	a := Attempts{Max: r.Int("spindle.yarn.maxAppAttempts"),
		FailuresValidity: r.Duration("spindle.yarn.am.attemptFailuresValidityInterval"),
		KeepContainers:   r.Bool("spindle.yarn.am.keepContainers")}
	if session && !conf.IsSet("spindle.yarn.maxAppAttempts") {
		a.Max = SessionMaxAppAttempts
	}
	if session && !conf.IsSet("spindle.yarn.am.attemptFailuresValidityInterval") {
		a.FailuresValidity = SessionFailuresValidity
	}
	return a, r.Err()
}
