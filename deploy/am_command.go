package deploy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/proclog"
	"github.com/spindle-yarn/spindle/deploy/session"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/deploy/summary"
	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/namenode"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// Files the submitter ships to the ApplicationMaster's working directory.
const (
	amJobFile       = "job.yaml"
	amSettingsFile  = "spindle.conf"
	amExecutorFiles = "executor-resources.pb" // the executors' local resources
	// amAllocationFile is spindle.scheduler.allocation.file's copy.
	amAllocationFile = "fairscheduler.xml"
	// On a Kerberos cluster: the krb5.conf the submitter logged in with,
	// and spindle.kerberos.keytab's copy, so the AM can log in to fetch
	// fresh tokens.
	amKrb5Conf = "krb5.conf"
	amKeytab   = "spindle.keytab"
)

// printTimings reports how long the application took to get going, from
// the submitter's clock (SPINDLE_SUBMIT_UNIX_MS), and the AM's peak
// resident memory: the figures of docs/yarn.md.
func printTimings(w io.Writer, sum core.Summary, executors int) {
	ms, _ := strconv.ParseInt(os.Getenv("SPINDLE_SUBMIT_UNIX_MS"), 10, 64)
	submitted := time.UnixMilli(ms)
	if ms > 0 && !sum.FirstLaunch.IsZero() {
		fmt.Fprintf(w, "  submit to first task launched: %s\n", sum.FirstLaunch.Sub(submitted).Round(time.Millisecond))
	}
	if ms > 0 && len(sum.Registered) >= executors && executors > 0 {
		fmt.Fprintf(w, "  submit to all %d executors registered: %s\n", executors, sum.Registered[executors-1].Sub(submitted).Round(time.Millisecond))
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		fmt.Fprintf(w, "  ApplicationMaster peak resident memory: %.1f MiB\n", float64(ru.Maxrss)/1024) // Linux reports KiB
	}
}

func amCommand() *cli.Command {
	return &cli.Command{Name: "am", Usage: "internal: run the ApplicationMaster in its YARN container", Hidden: true, Action: runAM,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "session", Usage: "run a session: jobs come from its clients"},
			&cli.StringFlag{Name: "log-file", Usage: "log to this file (the container's am.stderr), rolling it over by spindle.log.maxBytes and spindle.log.maxFiles"}}}
}

func runAM(c *cli.Context) error {
	conf, err := config.LoadFiles([]string{amSettingsFile}, nil)
	if err != nil {
		return err
	}
	appID, _ := os.LookupEnv("SPINDLE_APP_ID")
	logger, err := logger(c, conf, false)
	if err != nil {
		return err
	}
	if path := c.String("log-file"); path != "" {
		opts, err := settings.LogRolling(conf)
		if err != nil {
			return err
		}
		file, err := proclog.Container(path, opts)
		if err != nil {
			return err
		}
		defer file.Close()
		logger.SetOutput(file)
	}
	log := logger.WithField("app", appID)
	// Which attempt this is, from the AM's own container (YARN's
	// CONTAINER_ID): a retried application's attempts each log theirs.
	if id, err := yarn.ParseContainerID(os.Getenv("CONTAINER_ID")); err == nil {
		log = log.WithField("attempt", yarn.ApplicationAttemptID(id.GetAppAttemptId()))
	} else {
		log.WithError(err).Warn("CONTAINER_ID does not name the AM's container")
	}
	s := settings.Read(conf)
	schedCfg, err := settings.Scheduler(conf)
	if err != nil {
		return err
	}
	var job *jobspec.Job // a session's come from its clients
	if !c.Bool("session") {
		defaults, err := settings.JobDefaults(conf)
		if err != nil {
			return err
		}
		if job, err = jobspec.Load(amJobFile, defaults); err != nil {
			return err
		}
		if err := settings.OverrideJob(job, conf); err != nil {
			return err
		}
		if notice := settings.UndefinedPoolNotice(conf, job.Pool, schedCfg.Pools); notice != "" {
			log.Warn(notice)
		}
	}
	hconf, err := hadoopconf.FromEnvironment(os.LookupEnv)
	if err != nil {
		return err
	}
	creds, err := credentials.FromEnvironment()
	if err != nil {
		return err
	}
	secret, ok := creds.FindSecret(executor.SecretAlias)
	if !ok {
		return errors.New("the container's credentials hold no application secret")
	}
	amrmTokens := creds.TokensOfKind(yarn.AMRMTokenKind)
	if len(amrmTokens) == 0 {
		return errors.New("the container's credentials hold no AMRMToken")
	}
	user := yarnapp.User(os.LookupEnv)
	opts, err := yarn.ClientOptions(hconf, user)
	if err != nil {
		return err
	}
	rmOpts := opts
	rmOpts.Auth.Tokens = []*hadoopcommon.TokenProto{amrmTokens[0].Proto()}
	schedAddrs, err := yarn.Addresses(hconf, hadoopconf.RMSchedulerAddress)
	if err != nil {
		return err
	}
	rm, err := yarn.NewAMRMClient(schedAddrs, rmOpts)
	if err != nil {
		return err
	}
	defer rm.Close()

	mode := s.Enum("spindle.yarn.mode")
	if s.Err() != nil {
		return s.Err()
	}
	profiles, stageProfiles, err := settings.ExecutorProfiles(conf, job)
	if err != nil {
		return err
	}
	bind, err := amBindHost(conf)
	if err != nil {
		return err
	}
	host, _ := os.LookupEnv("NM_HOST")
	ccfg := core.Config{AppID: appID, Scheduler: schedCfg, Profiles: profiles, OneTaskPerExecutor: mode == "fine",
		// A container's exit status reaches the AM a heartbeat or two
		// after its executor's connection ends.
		LossReasonWait: 10 * time.Second}
	if c.Bool("session") {
		if ccfg.Limits, err = settings.SessionLimits(conf); err != nil {
			return err
		}
	}
	dynamic, err := conf.Bool("spindle.dynamicAllocation.enabled")
	if err != nil {
		return err
	}
	// Fine-grained mode asks for containers as tasks want them.
	dynamic = dynamic || mode == "fine"
	if dynamic {
		acfg, err := settings.Allocation(conf)
		if err != nil {
			return err
		}
		ccfg.Allocation = &acfg
	}
	policy, err := settings.Containers(conf, hconf, profiles[0].ID, dynamic)
	if err != nil {
		return err
	}
	ccfg.Containers = &policy.ContainerConfig

	launch := &hadoopyarn.ContainerLaunchContextProto{}
	raw, err := os.ReadFile(amExecutorFiles)
	if err == nil {
		err = proto.Unmarshal(raw, launch)
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", amExecutorFiles, err)
	}
	executorCreds := &credentials.Credentials{}
	executorCreds.AddSecret(credentials.Secret{Alias: executor.SecretAlias, Value: secret})
	// Executors and their tasks get the application's delegation tokens
	// (HDFS's, on a Kerberos cluster); the AMRMToken is the AM's alone.
	delegation := delegationTokens(creds)
	for _, t := range delegation {
		executorCreds.AddToken(t)
	}
	if launch.Tokens, err = credentialBytes(executorCreds); err != nil {
		return err
	}
	app, err := settings.ExecutorLaunch(conf, appID)
	if err != nil {
		return err
	}
	ctx, end := context.WithCancelCause(c.Context)
	defer end(nil)
	var latest atomic.Pointer[[]credentials.Token]
	latest.Store(&delegation)
	refresh, err := credentialsRefresh(ctx, conf, hconf, &latest, secret, end, log)
	if err != nil {
		return err
	}
	acls, err := settings.ACLs(conf, user)
	if err != nil {
		return err
	}
	web, err := webAccess(hconf, appID, acls, os.LookupEnv)
	if err != nil {
		return err
	}
	var sessionSecret []byte
	if c.Bool("session") {
		ccfg.Session = true
		if sessionSecret, ok = creds.FindSecret(session.SecretAlias); !ok {
			return errors.New("the container's credentials hold no session secret")
		}
	}
	sum, runErr := am.RunAppMaster(ctx, am.AppMaster{Credentials: refresh, ClientACL: acls.Check, Web: web, Job: job, SessionSecret: sessionSecret,
		PoolNotice: func(pool string) string { return settings.UndefinedPoolNotice(conf, pool, schedCfg.Pools) }, StageProfiles: stageProfiles, Core: ccfg, Secret: secret, Bind: bind, Host: host,
		RM: rm, NodeManagers: opts, Executors: launch, ExecutorEnv: conf.Prefixed(config.ExecutorEnvPrefix), Launch: app,
		NodeLabel: policy.NodeLabel, PortInNodeName: policy.PortInNodeName, Log: log,
		// Only on success: a failed attempt may be retried, and the
		// next one needs the files.
		BeforeUnregister: func(ctx context.Context, f core.Final) {
			if dir, ok := os.LookupEnv("SPINDLE_STAGING_DIR"); ok && f.Succeeded {
				removeStaging(ctx, log, hconf, user, dir, *latest.Load())
			}
		}})
	if job != nil {
		summary.Print(c.App.Writer, sum, "<LOG_DIR> of each container")
		printTimings(c.App.Writer, sum, policy.Initial[profiles[0].ID])
	}
	return runErr
}

// removeStaging removes the application's staging directory, saying in
// the log whether it could: a directory left behind is no reason to fail
// a job that succeeded.
func removeStaging(ctx context.Context, log logrus.FieldLogger, hconf *hadoopconf.Conf, user, dir string, tokens []credentials.Token) {
	var err error
	if method, _ := hconf.Authentication(); method == hadoopconf.AuthKerberos {
		err = removeWithToken(ctx, hconf, user, dir, tokens)
	} else {
		var st *staging.Stager
		if st, err = staging.New(hconf, user, nil); err == nil {
			err = st.Remove(ctx, dir)
			st.Close()
		}
	}
	if err != nil {
		log.WithError(err).WithField("dir", dir).Warn("the staging directory is left behind")
		return
	}
	log.WithField("dir", dir).Info("removed the staging directory")
}

// delegationTokens are the tokens of the AM's credentials its executors
// get: all but the AMRMToken.
func delegationTokens(creds *credentials.Credentials) []credentials.Token {
	var out []credentials.Token
	for _, t := range creds.Tokens {
		if t.Kind != yarn.AMRMTokenKind {
			out = append(out, t)
		}
	}
	return out
}

// removeWithToken removes dir on a Kerberos cluster, where the AM has no
// ticket: over Spindle's own NameNode client with the application's HDFS
// delegation token, which colinmarc/hdfs cannot authenticate with.
func removeWithToken(ctx context.Context, hconf *hadoopconf.Conf, user, dir string, tokens []credentials.Token) error {
	fsURI, err := hconf.DefaultFS()
	if err != nil {
		return err
	}
	addrs, _, err := hconf.NameNodes(fsURI)
	if err != nil {
		return err
	}
	opts, err := yarn.ClientOptions(hconf, user)
	if err != nil {
		return err
	}
	for _, t := range tokens {
		opts.Auth.Tokens = append(opts.Auth.Tokens, t.Proto())
	}
	nn, err := namenode.New(addrs, opts)
	if err != nil {
		return err
	}
	defer nn.Close()
	_, err = nn.Delete(ctx, dir, true)
	return err
}
