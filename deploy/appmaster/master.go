package appmaster

import (
	"context"
	"errors"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/am/webui"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// appMaster is what the ApplicationMaster runs (runAppMaster), settled
// from its container and settings (newAppMaster, Run).
type appMaster struct {
	// Job is the application's one job; nil for a session, whose jobs
	// come from the clients that prove they hold SessionSecret (and
	// Core.Session set).
	Job           *jobspec.Job
	SessionSecret []byte
	PoolNotice    func(pool string) string
	StageProfiles []scheduler.ProfileID
	// Core is the AM's rules; Core.Containers must be set. Its
	// MaxGPUsPerNode is replaced by the RM's maximum allocation.
	Core   core.Config
	Secret []byte
	// Bind is where the executor channel and the tracking page listen;
	// Host what the AM advertises (the NodeManager's host).
	Bind, Host string
	RM         *yarn.AMRMClient
	// NodeManagers says how to reach NodeManagers (their NMTokens are
	// added as the RM hands them out).
	NodeManagers ipc.Options
	// Executors is the launch context every executor container shares:
	// its local resources and credentials (the secret). The AM adds the
	// environment — ExecutorEnv, then the application's part of the
	// launch contract — and the command.
	Executors   *hadoopyarn.ContainerLaunchContextProto
	ExecutorEnv map[string]string
	Launch      executor.Launch
	// NodeLabel, Placement, PortInNodeName, ResourceTypes, RMWait and
	// RMRetryInterval: see am.YARN.
	NodeLabel               string
	Placement               yarn.Placement
	ResourceTypes           map[string]string
	PortInNodeName          bool
	RMWait, RMRetryInterval time.Duration
	// BeforeUnregister runs once the job has ended, before the AM
	// unregisters (removing the staged files, say), with the freshest
	// delegation tokens: whoever follows the application then finds
	// nothing left once it has ended.
	BeforeUnregister func(ctx context.Context, f core.Final, tokens []credentials.Token)
	// Tokens are the application's delegation tokens as it started (its
	// executors' launch context holds them too).
	Tokens []credentials.Token
	// RefreshTokens, when set, runs while the application does, keeping
	// its delegation tokens fresh: it hands fresh ones to the loop
	// (am.Driver.UpdateTokens), which owns them, and returns when ctx
	// ends.
	RefreshTokens func(ctx context.Context, fresh func([]credentials.Token))
	// ClientACL says whether client (the principal the RM authenticated)
	// may view the session, or modify it. On a secure cluster, where the
	// RM gives the AM a client-to-AM master key, a session admits only
	// requests carrying a client-to-AM token, and then asks ClientACL;
	// nil allows every holder of a token.
	ClientACL func(client string, modify bool) error
	// Web guards the tracking page; nil serves it to everyone.
	Web *webui.WebAccess
	// AMContainer and AMNode are the AM's own container and its node's
	// NodeId (nil, empty: not known), and HandingOver is called as the AM
	// hands the application over to its next attempt, its node being
	// decommissioned (am.ErrHandedOver).
	AMContainer *hadoopyarn.ContainerIdProto
	AMNode      string
	HandingOver func()
	// Journal, when set, keeps what the AM's next attempt needs to go
	// on with this one's work (am/journal, docs/reliability.md), and
	// holds what the attempt before this one left; this attempt writes
	// its segments under Attempt, its number. AdoptWait bounds how long
	// this attempt waits for the executors YARN kept from the one
	// before to register again before it places tasks.
	Journal   journal.Store
	AdoptWait time.Duration
	// Attempt is this AM's attempt of the application (from 1; 0:
	// unknown, taken as the first): it numbers new jobs, stages and task
	// attempts in ranges of its own (am/core's ids.go), and its journal
	// segments. KeptStopWait bounds how long the containers it releases
	// of those YARN kept hold placement (core.Core.Kept): their
	// executors' rejoin timeout and their tasks' grace to stop.
	Attempt      int
	KeptStopWait time.Duration
	// Terminated, when set, ends when the AM is told to stop from outside
	// (the NodeManager's SIGTERM: an NM shutting down, a decommission,
	// the AM's container preempted or killed) in an attempt not known to
	// be the application's last (attemptJudge). The AM then returns at
	// once without unregistering, as Spark's does, so that the
	// application goes on in its next attempt; unregistering would end
	// it. In the last attempt a termination cancels the work instead
	// (and Terminated never ends), and the AM unregisters with why.
	Terminated <-chan struct{}
	Log        logrus.FieldLogger
	// History is where the application's history goes: the UI's Store,
	// and the event log `spindle history` reads once it ended.
	History am.History
}

// errLeftToNextAttempt is runAppMaster's error when Terminated ended it:
// the application was not unregistered, and YARN starts its next
// attempt.
var errLeftToNextAttempt = errors.New("terminated: left to the application's next attempt, not unregistered")

// runAppMaster registers with the RM, serves the tracking page, runs the
// job on executor containers (am.Driver), and unregisters with how it
// ended. The summary is the job's; the error says why the application
// failed.
func runAppMaster(ctx context.Context, a appMaster) (core.Summary, error) {
	if a.Log == nil {
		a.Log = logrus.StandardLogger()
	}
	if a.Core.Containers == nil {
		return core.Summary{}, errors.New("an ApplicationMaster needs Core.Containers")
	}
	// The executors' port and the tracking page's are in the registration,
	// so both listen first; the driver is built once the RM has said how
	// many GPUs a node can have.
	ls, err := listenAll(a)
	if err != nil {
		return core.Summary{}, err
	}
	defer ls.close()
	reg, err := register(ctx, a, ls)
	if err != nil {
		return core.Summary{}, err
	}
	dcfg, err := driverConfig(a, ls, reg)
	if err != nil {
		return core.Summary{}, err
	}
	var stopHistory func()
	dcfg.Observe, stopHistory = am.StartHistory(ctx, a.History, a.Log)
	defer stopHistory()
	var journalDone <-chan struct{}
	stopJournal := func() {}
	kept := reg.resp.GetContainersFromPreviousAttempts()
	if a.Journal != nil {
		dcfg.Journal, dcfg.Resume, journalDone, stopJournal = takeOver(ctx, a, kept, dcfg.Observe.Metrics)
		defer func() { stopJournal(); <-journalDone }()
	} else {
		// No journal to go on with: the containers YARN kept are still
		// taken over, released, before any of their tasks starts again.
		dcfg.Resume = resumption(a, journal.NewState(a.Core.AppID), kept)
	}
	driver, err := am.New(dcfg)
	if err != nil {
		return core.Summary{}, err
	}
	if a.RefreshTokens != nil {
		cctx, stop := context.WithCancel(ctx)
		defer stop()
		go a.RefreshTokens(cctx, driver.UpdateTokens)
	}
	stopPage := serveTracking(a, driver, dcfg.Observe, ls.web)
	defer stopPage()
	final, sum, err := runDriver(ctx, a, driver)
	if err != nil {
		return core.Summary{}, err
	}
	if journalDone != nil {
		// Stopped before BeforeUnregister removes the staging directory,
		// which a late segment would make again.
		stopJournal()
		<-journalDone
	}
	// The event log is whole before the application is seen to end:
	// `spindle history` may read it at once.
	stopHistory()
	return sum, finish(ctx, a, final, driver.Tokens())
}

// runDriver runs the loop until the application ends (its error, if
// any, is the Final's diagnostics) or, before its last attempt, the AM
// is terminated: then errLeftToNextAttempt, at once.
func runDriver(ctx context.Context, a appMaster, driver *am.Driver) (core.Final, core.Summary, error) {
	type ran struct {
		sum   core.Summary
		final core.Final
		err   error
	}
	done := make(chan ran, 1)
	go func() {
		sum, final, err := driver.Run(ctx, a.Job, a.StageProfiles)
		done <- ran{sum, final, err}
	}()
	select {
	case r := <-done:
		switch {
		case errors.Is(r.err, am.ErrHandedOver):
			a.Log.WithField("app", a.Core.AppID).Warn("handed over: leaving the application to its next attempt (not unregistering)")
			return core.Final{}, core.Summary{}, errLeftToNextAttempt
		case errors.Is(r.err, am.ErrLeft):
			// Terminated, and the loop saw it first (am.Config.Left).
			return leftOnTermination(a)
		}
		if r.err != nil {
			r.final = core.Final{Diagnostics: r.err.Error()}
		}
		return r.final, r.sum, nil
	case <-a.Terminated:
		return leftOnTermination(a)
	}
}

// leftOnTermination is runDriver's end when the AM is terminated before
// its last attempt: the process ends now, whatever the loop was doing is
// the next attempt's to do again, and nothing may unregister.
func leftOnTermination(a appMaster) (core.Final, core.Summary, error) {
	a.Log.WithField("app", a.Core.AppID).Warn("terminated: leaving the application to its next attempt (not unregistering)")
	return core.Final{}, core.Summary{}, errLeftToNextAttempt
}
