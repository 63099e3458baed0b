package amtest

import (
	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/core"
)

// Option changes how a driver is set up.
type Option func(*setup)

// setup is a driver's configuration in the making.
type setup struct {
	cfg  am.Config
	rm   *FakeRM
	yarn []func(*am.YARN)
}

func newSetup(opts []Option) *setup {
	s := &setup{}
	for _, o := range opts {
		o(s)
	}
	return s
}

// WithCore changes the AM core's configuration: its profiles (one of one
// core unless set), its timeouts, its scheduler's settings.
func WithCore(change func(*core.Config)) Option {
	return func(s *setup) { change(&s.cfg.Core) }
}

// WithLog is where the driver logs. Without it the driver's log is kept
// and shown only if the test fails.
func WithLog(log logrus.FieldLogger) Option {
	return func(s *setup) { s.cfg.Log = log }
}

// WithObservation is where the driver's history goes: a history Store,
// metrics.
func WithObservation(o am.Observation) Option {
	return func(s *setup) { s.cfg.Observe = o }
}

// WithYARN runs the driver on YARN, with rm as its ResourceManager and
// NodeManagers it cannot reach, changed by change: it asks for 3
// containers of one profile (2 cores, 512 MiB, a GPU) and heartbeats
// every 20ms. A WithCore after it changes that.
func WithYARN(rm *FakeRM, change ...func(*am.YARN)) Option {
	return func(s *setup) {
		s.rm, s.yarn = rm, change
		s.cfg.Core.Profiles = yarnProfiles()
		s.cfg.Core.Containers = yarnContainers()
	}
}

// WithConfig changes the rest of the driver's configuration: its journal
// and what it resumes, a session's ClientAuth and PoolNotice, Progress.
func WithConfig(change func(*am.Config)) Option {
	return func(s *setup) { change(&s.cfg) }
}
