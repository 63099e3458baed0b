package am

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sirupsen/logrus"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/am/webui"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/launcher/nodemanager"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// AppMaster is what the ApplicationMaster process runs, settled from its
// configuration by the submission side (deploy's `spindle am`).
type AppMaster struct {
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
	// RMRetryInterval: see YARN.
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
	// (Driver.UpdateTokens), which owns them, and returns when ctx ends.
	RefreshTokens func(ctx context.Context, fresh func([]credentials.Token))
	// ClientACL says whether client (the principal the RM authenticated)
	// may view the session, or modify it. On a secure cluster, where the
	// RM gives the AM a client-to-AM master key, a session admits only
	// requests carrying a client-to-AM token, and then asks ClientACL;
	// nil allows every holder of a token.
	ClientACL func(client string, modify bool) error
	// Web guards the tracking page; nil serves it to everyone.
	Web *webui.WebAccess
	// Journal, when set, keeps what the AM's next attempt needs to go
	// on with this one's work (am/journal, docs/reliability.md), and
	// holds what the attempt before this one left. AdoptWait bounds how
	// long this attempt waits for the executors YARN kept from the one
	// before to register again before it places tasks.
	Journal   journal.Store
	AdoptWait time.Duration
	// Terminated, when set, ends when the AM is told to stop from outside
	// (the NodeManager's SIGTERM: an NM shutting down, a decommission,
	// the AM's container preempted or killed) in an attempt YARN will
	// follow with another. The AM then returns at once without
	// unregistering, as Spark's does, so that the application goes on in
	// its next attempt; unregistering would end it. Leave it nil in the
	// last attempt, where a termination cancels the work and the AM
	// unregisters with why.
	Terminated <-chan struct{}
	Log        logrus.FieldLogger
	// History is where the application's history goes: the UI's Store,
	// and the event log `spindle history` reads once it ended.
	History History
}

// ErrLeftToNextAttempt is RunAppMaster's error when Terminated ended it:
// the application was not unregistered, and YARN starts its next
// attempt.
var ErrLeftToNextAttempt = errors.New("terminated: left to the application's next attempt, not unregistered")

// RunAppMaster registers with the RM, serves the tracking page, runs the
// job on executor containers, and unregisters with how it ended. The
// summary is the job's; the error says why the application failed.
func RunAppMaster(ctx context.Context, a AppMaster) (core.Summary, error) {
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
	regReq := &hadoopyarn.RegisterApplicationMasterRequestProto{Host: proto.String(a.Host), RpcPort: proto.Int32(int32(ls.rpcPort)),
		TrackingUrl: proto.String(ls.trackingURL(a.Host))}
	reg, err := a.RM.RegisterApplicationMaster(ctx, regReq)
	if err != nil {
		return core.Summary{}, fmt.Errorf("registering with the ResourceManager: %w", err)
	}
	containers := *a.Core.Containers
	containers.Pack = a.Placement.Affinity == yarn.AffinityPack
	containers.MaxGPUsPerNode = int(yarn.ResourceValue(reg.GetMaximumCapability(), yarn.GPU))
	if most := reg.GetMaximumCapability(); most != nil { // what a session's new shapes must fit (0: unknown)
		containers.MaxMemoryMB, containers.MaxCores = yarn.ResourceValue(most, yarn.Memory), int(yarn.ResourceValue(most, yarn.VCores))
	}
	fields := logrus.Fields{"app": a.Core.AppID, "executors": ls.executors.Addr().String(), "tracking_url": ls.trackingURL(a.Host),
		"rpc_port": ls.rpcPort, "max_gpus_per_node": containers.MaxGPUsPerNode}
	containers.MaxAccelsPerNode = map[string]int{}
	for name, t := range a.ResourceTypes {
		containers.MaxAccelsPerNode[name] = int(yarn.ResourceValue(reg.GetMaximumCapability(), t))
		fields["max_"+name+"_per_node"] = containers.MaxAccelsPerNode[name]
	}
	a.Log.WithFields(fields).Info("registered with the ResourceManager")
	y := &YARN{RM: a.RM, Launcher: nodemanager.New(a.NodeManagers, executorLaunch(a, ls.executorPort()), 8), NodeLabel: a.NodeLabel,
		ResourceTypes: a.ResourceTypes, Placement: a.Placement, PortInNodeName: a.PortInNodeName, Tokens: a.Tokens, RMWait: a.RMWait, RMRetryInterval: a.RMRetryInterval,
		Register: func(ctx context.Context) error {
			_, err := a.RM.RegisterApplicationMaster(ctx, regReq)
			return err
		}}
	coreCfg := a.Core
	coreCfg.Containers = &containers
	dcfg := Config{Core: coreCfg, Executors: ls.executors, YARN: y, Log: a.Log, Clients: ls.clients, PoolNotice: a.PoolNotice}
	y.Launcher.AddTokens(reg.GetNmTokensFromPreviousAttempts())
	var journalDone <-chan struct{}
	stopJournal := func() {}
	if a.Journal != nil {
		dcfg.Journal, dcfg.Resume, journalDone, stopJournal = takeOver(ctx, a, reg.GetContainersFromPreviousAttempts())
		defer func() { stopJournal(); <-journalDone }()
	}
	if key := reg.GetClientToAmTokenMasterKey(); ls.clients != nil && len(key) > 0 {
		app, err := yarn.ParseApplicationID(a.Core.AppID)
		if err != nil {
			return core.Summary{}, err
		}
		dcfg.ClientAuth = clientAuth(yarn.ClientTokenVerifier{MasterKey: key, App: app}, a.ClientACL)
		a.Log.Info("session clients must bring a client-to-AM token (a secure cluster)")
	}
	var stopHistory func()
	dcfg.Observe, stopHistory = startHistory(ctx, a.History, a.Log)
	defer stopHistory()
	driver, err := New(dcfg)
	if err != nil {
		return core.Summary{}, err
	}
	if a.RefreshTokens != nil {
		cctx, stop := context.WithCancel(ctx)
		defer stop()
		go a.RefreshTokens(cctx, driver.UpdateTokens)
	}
	stopPage := serveTracking(a, driver, ls.web)
	defer stopPage()
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
	var r ran
	select {
	case r = <-done:
	case <-a.Terminated:
		// The process ends now: whatever the loop was doing is the next
		// attempt's to do again, and nothing may unregister.
		a.Log.WithField("app", a.Core.AppID).Warn("terminated: leaving the application to its next attempt (not unregistering)")
		return core.Summary{}, ErrLeftToNextAttempt
	}
	if r.err != nil {
		r.final = core.Final{Diagnostics: r.err.Error()}
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
	return r.sum, finish(ctx, a, r.final, driver.Tokens())
}

// amListeners are where the AM listens: for executors, a session's
// clients, and the tracking page. rpcPort is the port the registration
// gives clients (YARN hands it to them in the application report): a
// session's client port, or for one job the executors'.
type amListeners struct {
	executors, clients *wire.Listener
	web                net.Listener
	rpcPort            int
}

func listenAll(a AppMaster) (ls amListeners, err error) {
	defer func() {
		if err != nil {
			ls.close()
		}
	}()
	if ls.executors, err = wire.Listen("tcp", net.JoinHostPort(a.Bind, "0"), a.Secret); err != nil {
		return ls, fmt.Errorf("listening for executors: %w", err)
	}
	ls.rpcPort = ls.executorPort()
	if a.SessionSecret != nil {
		if ls.clients, err = wire.Listen("tcp", net.JoinHostPort(a.Bind, "0"), a.SessionSecret); err != nil {
			return ls, fmt.Errorf("listening for the session's clients: %w", err)
		}
		ls.rpcPort = ls.clients.Addr().(*net.TCPAddr).Port
	}
	if ls.web, err = net.Listen("tcp", net.JoinHostPort(a.Bind, "0")); err != nil {
		return ls, fmt.Errorf("listening for the tracking page: %w", err)
	}
	return ls, nil
}

func (ls amListeners) executorPort() int { return ls.executors.Addr().(*net.TCPAddr).Port }

// trackingURL is the job's status page, which the RM's web proxy shows
// as the application's.
func (ls amListeners) trackingURL(host string) string {
	return "http://" + net.JoinHostPort(host, strconv.Itoa(ls.web.Addr().(*net.TCPAddr).Port)) + "/"
}

// close closes what is open; the driver's Run closes the executors' and
// clients' listeners too: this covers the ways out before it.
func (ls amListeners) close() {
	if ls.executors != nil {
		ls.executors.Close()
	}
	if ls.clients != nil {
		ls.clients.Close()
	}
	if ls.web != nil {
		ls.web.Close()
	}
}

// executorLaunch is the launch context of every executor container: the
// shared one the AM was given, its environment, and the command.
func executorLaunch(a AppMaster, port int) *hadoopyarn.ContainerLaunchContextProto {
	launch := proto.Clone(a.Executors).(*hadoopyarn.ContainerLaunchContextProto)
	app := a.Launch
	app.DriverAddress = net.JoinHostPort(a.Host, strconv.Itoa(port))
	launch.Environment = append(launch.Environment, executorEnvironment(a.ExecutorEnv, app)...)
	// Task logs go to the container's log directory, where log
	// aggregation and `yarn logs` find them: the launch's last part, on
	// the command line, where the NodeManager expands <LOG_DIR>. The
	// executor's log is its stderr file, which it rolls over itself.
	logDir := strings.Join(executor.Launch{LogDir: "<LOG_DIR>", LogFile: "<LOG_DIR>/executor.stderr"}.Environ(), " ")
	launch.Command = []string{logDir + " ./spindle executor 1><LOG_DIR>/executor.stdout 2><LOG_DIR>/executor.stderr"}
	return launch
}

// serveTracking serves the tracking page on web, guarded by a.Web, until
// the function it returns is called.
func serveTracking(a AppMaster, driver *Driver, web net.Listener) (stop func()) {
	base := ""
	if a.Web != nil {
		if u, err := url.Parse(a.Web.ProxyBase); err == nil {
			base = u.Path
		}
	}
	page := webui.TrackingHandler(webui.Tracking{UI: webui.Options{Store: driver.cfg.Observe.Store, Base: base}, Status: driver.Status,
		Metrics: driver.cfg.Observe.Metrics.Handler()})
	if a.Web != nil {
		page = a.Web.Handler(page)
	}
	tracking := &http.Server{Handler: page, ReadHeaderTimeout: 10 * time.Second}
	go tracking.Serve(web)
	return func() { tracking.Close() }
}

// finish runs BeforeUnregister with the freshest tokens, then
// unregisters with how the application ended, asking until the RM says
// done; the error is why it failed.
func finish(ctx context.Context, a AppMaster, final core.Final, tokens []credentials.Token) error {
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	if a.BeforeUnregister != nil {
		a.BeforeUnregister(fctx, final, tokens)
	}
	status := hadoopyarn.FinalApplicationStatusProto_APP_FAILED
	if final.Succeeded {
		status = hadoopyarn.FinalApplicationStatusProto_APP_SUCCEEDED
	}
	for {
		resp, err := a.RM.FinishApplicationMaster(fctx, &hadoopyarn.FinishApplicationMasterRequestProto{FinalApplicationStatus: status.Enum(), Diagnostics: proto.String(final.Diagnostics)})
		if err != nil {
			return fmt.Errorf("unregistering: %w", err)
		}
		if resp.GetIsUnregistered() {
			break
		}
		select {
		case <-fctx.Done():
			return fmt.Errorf("unregistering: %w", fctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
	a.Log.WithFields(logrus.Fields{"app": a.Core.AppID, "final_status": status.String()}).Infof("unregistered: %s", final.Diagnostics)
	if !final.Succeeded {
		return errors.New(final.Diagnostics)
	}
	return nil
}

// executorEnvironment is what every executor container's launch context
// sets, sorted by name: extra (spindle.executorEnv, which the container,
// and so its tasks, inherit, over what the NodeManager gives), then the
// application's part of the launch contract. The NodeManager adds its own
// (CONTAINER_ID, NM_HOST, LOCAL_DIRS, LOG_DIRS, …) and its whitelist's.
func executorEnvironment(extra map[string]string, app executor.Launch) []*hadoopyarn.StringStringMapProto {
	env := maps.Clone(extra)
	if env == nil {
		env = map[string]string{}
	}
	maps.Copy(env, app.Env())
	out := make([]*hadoopyarn.StringStringMapProto, 0, len(env))
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out = append(out, &hadoopyarn.StringStringMapProto{Key: proto.String(k), Value: proto.String(env[k])})
	}
	return out
}
