package appmaster

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/proclog"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/summary"
	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// Env is what starts the AM besides its container's working directory
// and environment: the `spindle am` command line and its output.
type Env struct {
	// Session runs a session: jobs come from its clients.
	Session bool
	// LogFile, when set, is where the AM logs (the container's
	// am.stderr), rolling it over by spindle.log.maxBytes and
	// spindle.log.maxFiles.
	LogFile string
	Verbose bool
	// Stdout gets a job's summary; Stderr the log without LogFile.
	Stdout, Stderr io.Writer
}

// Run is the ApplicationMaster process: it runs the application to its
// end, or until ctx is cancelled (a signal), and says why it failed. A
// signal ends the work only in an attempt known to be the application's
// last (attemptJudge); otherwise the AM leaves without unregistering,
// and YARN starts the next attempt if its rule allows one
// (appMaster.Terminated).
func Run(ctx context.Context, env Env) error {
	conf, err := settings.ReadFile(yarnapp.SettingsFile)
	if err != nil {
		return err
	}
	appID, _ := os.LookupEnv("SPINDLE_APP_ID")
	log, closeLog, err := openLog(conf, env, appID)
	if err != nil {
		return err
	}
	defer closeLog()
	job, ccfg, stageProfiles, err := jobAndRules(conf, appID, env.Session, log)
	if err != nil {
		return err
	}
	c, err := readContainer()
	if err != nil {
		return err
	}
	rm, nodes, err := c.connectRM()
	if err != nil {
		return err
	}
	defer rm.Close()
	login, err := logIn(conf, c.hconf, log)
	if err != nil {
		return err
	}
	defer login.close()
	judge := newAttemptJudge(ctx, conf, c, env.Session, log)
	ctx, end, terminated := attemptContext(ctx, judge)
	left := false
	defer func() {
		// Left to the next attempt, the work must not be ended on the
		// way out: a cancelled driver would stop the executors' tasks,
		// which the next attempt adopts. The process's exit drops their
		// connections as a crash does.
		if !left {
			end(nil)
		}
	}()
	a, err := newAppMaster(ctx, conf, appID, c, login, end, log)
	if err != nil {
		return err
	}
	if judge.knownLast() {
		// No attempt follows to adopt them: executors end with this AM.
		// Any other attempt's may outlive it: an exit YARN does not
		// count (a preemption, a lost node) or a failure the validity
		// interval forgets gets the application another.
		a.Launch.RejoinTimeout = 0
	}
	if env.Session {
		if a.SessionSecret, err = c.sessionSecret(); err != nil {
			return err
		}
	}
	a.Job, a.Core, a.StageProfiles, a.RM, a.NodeManagers, a.Terminated = job, ccfg, stageProfiles, rm, nodes, terminated
	if a.ResourceTypes, err = settings.ResourceTypes(conf, job); err != nil { // the job's stages may name accelerators
		return err
	}
	a.AMContainer, a.AMNode, a.HandingOver = c.self, c.node, judge.handOver
	closeStores, err := a.stores(conf, c, login, appID, env.Session)
	if err != nil {
		return err
	}
	defer closeStores()
	sum, runErr := runAppMaster(ctx, a)
	if errors.Is(runErr, errLeftToNextAttempt) {
		left = true
		return runErr
	}
	if job != nil {
		summary.Print(env.Stdout, sum, "<LOG_DIR> of each container")
		printTimings(env.Stdout, sum, ccfg.Containers.Initial[ccfg.Profiles[0].ID])
	}
	return runErr
}

// jobAndRules are the application's job (nil for a session: its jobs
// come from its clients) and the AM's rules, with its stages' profiles.
func jobAndRules(conf *config.Config, appID string, session bool, log logrus.FieldLogger) (*jobspec.Job, core.Config, []scheduler.ProfileID, error) {
	var job *jobspec.Job
	if !session {
		var err error
		if job, err = loadJob(conf); err != nil {
			return nil, core.Config{}, nil, err
		}
	}
	ccfg, stageProfiles, err := settings.Core(conf, settings.CoreFor{AppID: appID, Job: job, Session: session, Containers: true})
	if err != nil {
		return nil, core.Config{}, nil, err
	}
	// A container's exit status reaches the AM a heartbeat or two after
	// its executor's connection ends.
	ccfg.LossReasonWait = 10 * time.Second
	// An executor written off with no exit status holds its tasks until
	// its container is known stopped, or it has surely stopped them.
	rejoin, err := conf.Duration("spindle.yarn.executor.rejoinTimeout")
	if err != nil {
		return nil, core.Config{}, nil, err
	}
	ccfg.Containers.CutStopWait = keptStopWait(rejoin)
	if job != nil {
		if notice := settings.UndefinedPoolNotice(conf, job.Pool, ccfg.Scheduler.Pools); notice != "" {
			log.Warn(notice)
		}
	}
	return job, ccfg, stageProfiles, nil
}

// stores settles where the AM keeps what outlives it: its journal, its
// history (with its event log), how long it waits for the executors an
// earlier attempt left; and what it does before unregistering. The
// function returned closes the journal's and the event log's file
// systems.
func (a *appMaster) stores(conf *config.Config, c container, login amLogin, appID string, session bool) (func(), error) {
	var closeJournal, closeHistory func()
	a.Journal, closeJournal = journalStore(c, conf, login, a.Log)
	var err error
	if a.History, closeHistory, err = appHistory(conf, c, appID, session, a.Log); err != nil {
		closeJournal()
		return nil, err
	}
	closeAll := func() { closeHistory(); closeJournal() }
	if a.AdoptWait, err = conf.Duration("spindle.yarn.am.adoptTimeout"); err != nil {
		closeAll()
		return nil, err
	}
	rejoin, err := conf.Duration("spindle.yarn.executor.rejoinTimeout")
	if err != nil {
		closeAll()
		return nil, err
	}
	a.KeptStopWait = keptStopWait(rejoin)
	pools := a.Core.Scheduler.Pools
	a.PoolNotice = func(pool string) string { return settings.UndefinedPoolNotice(conf, pool, pools) }
	log := a.Log
	a.BeforeUnregister = func(ctx context.Context, f core.Final, tokens []credentials.Token) {
		if dir, ok := os.LookupEnv("SPINDLE_STAGING_DIR"); ok && f.Succeeded {
			removeStagingAfterSuccess(ctx, log, c.hconf, c.user, dir, tokens)
		}
	}
	return closeAll, nil
}

// openLog is the AM's log, each line naming the application and which
// attempt this is, from the AM's own container (YARN's CONTAINER_ID): a
// retried application's attempts each log theirs. The function returned
// closes its file.
func openLog(conf *config.Config, env Env, appID string) (logrus.FieldLogger, func(), error) {
	logger, err := proclog.New(env.Stderr, conf, false, env.Verbose)
	if err != nil {
		return nil, nil, err
	}
	closeLog := func() {}
	if env.LogFile != "" {
		opts, err := settings.LogRolling(conf)
		if err != nil {
			return nil, nil, err
		}
		file, err := proclog.Container(env.LogFile, opts)
		if err != nil {
			return nil, nil, err
		}
		logger.SetOutput(file)
		closeLog = func() { file.Close() }
	}
	log := logger.WithField("app", appID)
	if attempt, err := ownAttempt(); err == nil {
		log = log.WithField("attempt", yarn.ApplicationAttemptID(attempt))
	} else {
		log.WithError(err).Warn("CONTAINER_ID does not name the AM's container")
	}
	return log, closeLog, nil
}

// loadJob is the job the submitter shipped, with the name and pool its
// settings give it.
func loadJob(conf *config.Config) (*jobspec.Job, error) {
	defaults, err := settings.JobDefaults(conf)
	if err != nil {
		return nil, err
	}
	job, err := jobspec.Load(yarnapp.JobFile, defaults)
	if err != nil {
		return nil, err
	}
	return job, settings.OverrideJob(job, conf)
}

// newAppMaster settles what the AM needs of its container and settings
// besides its job and core: where it listens, the executors' launch
// context and contract, the tokens' refresh, the ACLs and the tracking
// page's guard.
func newAppMaster(ctx context.Context, conf *config.Config, appID string, c container, login amLogin, end context.CancelCauseFunc,
	log logrus.FieldLogger) (a appMaster, err error) {
	a = appMaster{Secret: c.secret, Host: c.host, Log: log, Attempt: c.attempt}
	if a.ExecutorEnv, err = settings.ExecutorEnv(conf); err != nil {
		return a, err
	}
	if a.Bind, err = bindHost(conf); err != nil {
		return a, err
	}
	place, err := settings.ContainerPlacement(conf, c.hconf)
	if err != nil {
		return a, err
	}
	a.NodeLabel, a.Placement, a.PortInNodeName = place.NodeLabel, place.Constraints, place.PortInNodeName
	reconnect, err := settings.ReconnectRM(c.hconf)
	if err != nil {
		return a, err
	}
	a.RMWait, a.RMRetryInterval = reconnect.Wait, reconnect.Interval
	if a.Executors, err = c.executorLaunchContext(); err != nil {
		return a, err
	}
	if a.Launch, err = settings.ExecutorLaunch(conf, appID); err != nil {
		return a, err
	}
	a.Tokens = c.delegationTokens()
	if a.RefreshTokens, err = credentialsRefresh(ctx, conf, c.hconf, a.Tokens, login, end, log); err != nil {
		return a, err
	}
	acls, err := settings.ACLs(conf, c.user)
	if err != nil {
		return a, err
	}
	a.ClientACL = acls.Check
	if a.Web, err = webAccess(c.hconf, appID, acls, os.LookupEnv); err != nil {
		return a, err
	}
	return a, nil
}
