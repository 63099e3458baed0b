package localmode

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/webui"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/launcher/local"
)

// Program is local mode's driver program: the same loop (am.Driver) and
// core as the ApplicationMaster, with a fixed set of executor processes
// on this machine instead of containers.
type Program struct {
	Job *jobspec.Job
	// Core is the core's configuration (deploy/settings.Core): its AppID
	// names the application, its first profile every executor; Session
	// is set here from Clients.
	Core core.Config
	// GPUs gives each executor, in order, its GPU addresses: one
	// executor per entry.
	GPUs [][]string
	// Accels gives each executor, in order, its accelerators besides
	// GPUs, their addresses disjoint as its GPUs'; nil for none.
	Accels [][]executor.Accelerator
	// Launcher starts the executors (its DriverAddr is filled here).
	Launcher local.Config
	// Progress is am.Config's: called from the loop, it must not wait
	// (internal/latest hands it on without waiting).
	Progress func(core.Progress)
	Log      logrus.FieldLogger
	// Clients makes it a session (Job nil): its clients connect there
	// (wire.Listen with the session's secret) and submit its jobs.
	Clients    *wire.Listener
	PoolNotice func(pool string) string
	// UI, when set, is where the web UI is served (a loopback address),
	// to UIOwner's token alone (webui.OwnerOnly: other local users get
	// 403); History where the application's history goes.
	UI      net.Listener
	UIOwner webui.OwnerOnly
	History am.History
	// EventLogs, when History has a log, is the directory it is in:
	// Run marks its own running and cleans the others' as it starts.
	EventLogs *EventLogDir
}

// Run runs l's job to its end, or until ctx is cancelled. It ends
// unsuccessfully, saying so, once every executor has exited. A session
// runs until a client stops it, or ctx is cancelled.
func Run(ctx context.Context, l Program) (core.Summary, error) {
	if l.UI != nil {
		defer l.UI.Close()
	}
	if len(l.Core.Profiles) == 0 {
		return core.Summary{}, errors.New("local mode needs an executor profile")
	}
	ln, err := wire.Listen("tcp", "127.0.0.1:0", l.Launcher.Secret)
	if err != nil {
		return core.Summary{}, err
	}
	defer ln.Close() // Run closes it too; this covers the ways out before
	l.Core.Session = l.Clients != nil
	if l.Log == nil {
		l.Log = logrus.StandardLogger()
	}
	if l.EventLogs != nil {
		defer l.EventLogs.open(ctx, l.Core.AppID, l.Log)()
	}
	observe, stopHistory := am.StartHistory(ctx, l.History, l.Log)
	defer stopHistory()
	driver, err := am.New(am.Config{Core: l.Core, Executors: ln, Progress: l.Progress, Log: l.Log, Clients: l.Clients, PoolNotice: l.PoolNotice,
		Observe: observe})
	if err != nil {
		return core.Summary{}, err
	}
	if l.UI != nil {
		tracking := webui.Tracking{UI: webui.Options{Store: observe.Store, TaskFiles: l.Launcher.LogDir}, Status: driver.Status, Metrics: observe.Metrics.Handler()}
		page := &http.Server{Handler: l.UIOwner.Handler(webui.TrackingHandler(tracking)), ReadHeaderTimeout: 10 * time.Second}
		go page.Serve(l.UI)
		defer page.Close()
	}
	if l.Launcher.Binary == "" {
		if l.Launcher.Binary, err = os.Executable(); err != nil {
			return core.Summary{}, err
		}
	}
	l.Launcher.DriverAddr, l.Launcher.AppID = driver.Addr(), l.Core.AppID
	launcher, err := local.New(l.Launcher)
	if err != nil {
		return core.Summary{}, err
	}
	defer launcher.Stop()

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var procs []*local.Process
	for i, gpus := range l.GPUs {
		e := local.Executor{ID: fmt.Sprintf("exec-%d", i+1), Cores: l.Core.Profiles[0].Cores, GPUs: gpus}
		if i < len(l.Accels) {
			e.Accels = l.Accels[i]
		}
		p, err := launcher.Start(e)
		if err != nil {
			return core.Summary{}, err
		}
		procs = append(procs, p)
	}
	// Executors that all died cannot run anything: end the job saying why,
	// rather than waiting forever.
	go func() {
		for _, p := range procs {
			<-p.Done()
		}
		cancel(fmt.Errorf("every executor exited (see %s/*/executor.log)", l.Launcher.LogDir))
	}()
	sum, final, err := driver.Run(ctx, l.Job, nil)
	if err == nil && l.Clients != nil && !final.Succeeded {
		err = errors.New(final.Diagnostics)
	}
	return sum, err
}
