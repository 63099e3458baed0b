package deploy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/proclog"
	"github.com/spindle-yarn/spindle/deploy/session"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/executor/wire"
)

func sessionCommand() *cli.Command {
	startFlags := []cli.Flag{
		&cli.StringFlag{Name: "properties-file", Usage: "spark-defaults.conf-style settings (default $SPINDLE_CONF_DIR/spindle-defaults.conf)"},
		&cli.StringSliceFlag{Name: "conf", Usage: "KEY=VALUE, repeatable; wins over the properties file"},
	}
	for _, fk := range flagKeys {
		switch fk.flag {
		case "master", "name", "queue", "num-executors", "executor-cores", "executor-memory", "executor-gpus":
			startFlags = append(startFlags, &cli.StringFlag{Name: fk.flag, Usage: "sets " + fk.key})
		}
	}
	return &cli.Command{
		Name:  "session",
		Usage: "a long-lived application that runs the jobs its clients submit (spindle submit --session ID)",
		Subcommands: []*cli.Command{
			{
				Name:      "start",
				Usage:     "start a session; its id is the last line, SESSION=<id>",
				UsageText: "spindle session start [--master local[N]|yarn] [--name NAME] [--queue Q] [--conf K=V]... [--properties-file F]",
				Flags:     startFlags,
				Action:    runSessionStart,
			},
			{
				Name:      "stop",
				Usage:     "stop a session: its running jobs are cancelled, its executors released",
				UsageText: "spindle session stop ID",
				Action:    runSessionStop,
			},
			{
				Name:   "serve",
				Usage:  "internal: a local session's driver (started by spindle session start)",
				Hidden: true,
				Action: runSessionServe,
			},
		},
	}
}

// sessionConf reads a session command's configuration: its flags, --conf
// and the properties file.
func sessionConf(c *cli.Context) (*config.Config, error) {
	var flags []config.Flag
	for _, fk := range flagKeys {
		if c.IsSet(fk.flag) {
			flags = append(flags, config.Flag{Name: "--" + fk.flag, Key: fk.key, Value: c.String(fk.flag)})
		}
	}
	return loadConfig(c.String("properties-file"), c.StringSlice("conf"), flags...)
}

func runSessionStart(c *cli.Context) error {
	if c.Args().Present() {
		return fmt.Errorf("spindle session start takes no arguments, got %q", c.Args().First())
	}
	conf, err := sessionConf(c)
	if err != nil {
		return err
	}
	master, err := conf.Master()
	if err != nil {
		return err
	}
	if master.Yarn {
		return startYarnSession(c, conf)
	}
	if err := refuseYarnOnlySettings(conf); err != nil {
		return err
	}
	return startLocalSession(c, conf)
}

// localSessionSettings is the file in a local session's state directory
// that hands its driver the starter's settings.
const localSessionSettings = "spindle.conf"

// startLocalSession starts a local session's driver in the background, a
// process of its own that outlives this command (and the terminal), and
// returns once it takes clients.
func startLocalSession(c *cli.Context, conf *config.Config) error {
	id := newLocalAppID()
	dir, err := session.Create(id, wire.NewSecret())
	if err != nil {
		return err
	}
	started := false
	defer func() {
		if !started {
			session.Remove(id)
		}
	}()
	if err := settings.WriteFile(filepath.Join(dir, localSessionSettings), conf, nil); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(filepath.Join(dir, "serve.out"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	defer out.Close()
	args := []string{"session", "serve", id}
	if c.Bool("verbose") {
		args = append([]string{"--verbose"}, args...)
	}
	cmd := exec.Command(self, args...)
	cmd.Stdout, cmd.Stderr = out, out
	// A session of its own, so that the terminal's hangup and Ctrl-C do
	// not reach it: it ends with `spindle session stop`.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting the session's driver: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for deadline := time.Now().Add(30 * time.Second); ; {
		r, _, err := session.Load(id)
		if err == nil && r.Socket != "" {
			started = true
			fmt.Fprintf(c.App.Writer, "session %s started: %s, driver pid %d, log %s\n", id, r.Master, r.PID, r.Log)
			fmt.Fprintf(c.App.Writer, "SESSION=%s\n", id)
			return nil
		}
		select {
		case err := <-exited:
			b, _ := os.ReadFile(out.Name())
			return fmt.Errorf("the session's driver exited (%v) before it took clients:\n%s", err, bytes.TrimSpace(b))
		case <-c.Context.Done():
			cmd.Process.Kill()
			return context.Cause(c.Context)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			return errors.New("the session's driver did not take clients within 30s")
		}
	}
}

// runSessionServe is a local session's driver: it runs until a client
// stops it (or a signal does), then forgets the session.
func runSessionServe(c *cli.Context) error {
	id := c.Args().First()
	dir, err := session.Dir(id)
	if err != nil {
		return err
	}
	defer session.Remove(id)
	conf, err := config.LoadFiles([]string{filepath.Join(dir, localSessionSettings)}, nil)
	if err != nil {
		return err
	}
	secret, err := session.Secret(id)
	if err != nil {
		return err
	}
	master, err := conf.Master()
	if err != nil {
		return err
	}
	cores, err := conf.Int("spindle.executor.cores")
	if err != nil {
		return err
	}
	log, err := logger(c, conf, false)
	if err != nil {
		return err
	}
	l, appDir, err := localApp(c, conf, log, id, master.LocalExecutors(runtime.NumCPU(), cores))
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
	// Clients come through a Unix socket in the session's directory,
	// which only its owner can enter, and the kernel names each peer's
	// user: nobody else can so much as start a handshake.
	socket, err := session.SocketPath(id)
	if err != nil {
		return err
	}
	clients, err := wire.Listen("unix", socket, secret, wire.OnlyUID(os.Geteuid()))
	if err != nil {
		return err
	}
	defer clients.Close()
	l.Clients = clients
	if l.Limits, err = settings.SessionLimits(conf); err != nil {
		return err
	}
	l.PoolNotice = func(pool string) string { return settings.UndefinedPoolNotice(conf, pool, l.Scheduler.Pools) }
	name, _ := conf.String("spindle.app.name")
	masterSetting, _ := conf.String("spindle.master")
	if err := session.Save(session.Record{ID: id, Master: masterSetting, Name: name, Socket: socket, PID: os.Getpid(),
		Log: logFile.Name(), Started: time.Now()}); err != nil {
		return err
	}
	// From here on the starter has returned: what this process says on
	// standard error (a crash) goes to driver.log, not serve.out, which
	// is removed with the session's record.
	if err := logFile.Stderr(); err != nil {
		log.WithError(err).Warn("a crash would not be in driver.log")
	}
	_, err = am.RunLocal(c.Context, l)
	return err
}
