package localmode

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/proclog"
	"github.com/spindle-yarn/spindle/deploy/session"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/internal/logroll"
	"github.com/spindle-yarn/spindle/launcher/local"
)

// SessionSettings is the file in a local session's state directory that
// hands its driver the starter's settings.
const SessionSettings = "spindle.conf"

// ServeEnv is what starts a local session's driver: the session's id
// (its state directory holds its settings and secret), and where it logs
// until its own driver.log is open.
type ServeEnv struct {
	ID      string
	Verbose bool
	Stderr  io.Writer
}

// Serve is a local session's driver: it runs until a client stops it (or
// ctx ends: a signal), then forgets the session.
func Serve(ctx context.Context, env ServeEnv) error {
	id := env.ID
	dir, err := session.Dir(id)
	if err != nil {
		return err
	}
	defer session.Remove(id)
	conf, err := settings.ReadFile(filepath.Join(dir, SessionSettings))
	if err != nil {
		return err
	}
	log, err := proclog.New(env.Stderr, conf, false, env.Verbose)
	if err != nil {
		return err
	}
	l, appDir, err := sessionApp(conf, log, env)
	if err != nil {
		return err
	}
	defer appDir.Close()
	// The driver's own log lives with the task logs, outliving the
	// session's record, and rolls over (spindle.log.maxBytes).
	logFile, err := proclog.Rolling(conf, filepath.Join(appDir.Path, "driver.log"))
	if err != nil {
		return err
	}
	defer logFile.Close()
	log.SetOutput(logFile)
	if l.Clients, err = listenForClients(id); err != nil {
		return err
	}
	defer l.Clients.Close()
	if err := record(conf, id, logFile, UIURL(l)); err != nil {
		return err
	}
	// From here on the starter has returned: what this process says on
	// standard error (a crash) goes to driver.log, not serve.out, which
	// is removed with the session's record.
	if err := logFile.Stderr(); err != nil {
		log.WithError(err).Warn("a crash would not be in driver.log")
	}
	_, err = Run(ctx, l)
	return err
}

// sessionApp is the session's local application, with as many executors
// as its master says.
func sessionApp(conf *config.Config, log *logrus.Logger, env ServeEnv) (Program, *local.AppDir, error) {
	master, err := conf.Master()
	if err != nil {
		return Program{}, nil, err
	}
	cores, err := conf.Int("spindle.executor.cores")
	if err != nil {
		return Program{}, nil, err
	}
	l, appDir, err := App(conf, log, Options{AppID: env.ID, Executors: master.LocalExecutors(runtime.NumCPU(), cores), Session: true, Verbose: env.Verbose})
	if err != nil {
		return Program{}, nil, err
	}
	l.PoolNotice = func(pool string) string { return settings.UndefinedPoolNotice(conf, pool, l.Core.Scheduler.Pools) }
	return l, appDir, nil
}

// listenForClients takes the session's clients on a Unix socket in its
// directory, which only its owner can enter, and the kernel names each
// peer's user: nobody else can so much as start a handshake.
func listenForClients(id string) (*wire.Listener, error) {
	secret, err := session.Secret(id)
	if err != nil {
		return nil, err
	}
	socket, err := session.SocketPath(id)
	if err != nil {
		return nil, err
	}
	return wire.Listen("unix", socket, secret, wire.OnlyUID(os.Geteuid()))
}

// record saves the session's record, which tells its clients where it
// is, and the starter that it has started.
func record(conf *config.Config, id string, logFile *logroll.File, ui string) error {
	socket, err := session.SocketPath(id)
	if err != nil {
		return err
	}
	name, _ := conf.String("spindle.app.name")
	master, _ := conf.String("spindle.master")
	return session.Save(session.Record{ID: id, Master: master, Name: name, Socket: socket, PID: os.Getpid(),
		Log: logFile.Name(), UI: ui, Started: time.Now()})
}
