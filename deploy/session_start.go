package deploy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/localmode"
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
				Action: func(c *cli.Context) error {
					return localmode.Serve(c.Context, localmode.ServeEnv{ID: c.Args().First(), Verbose: c.Bool("verbose"), Stderr: c.App.ErrWriter})
				},
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

// startLocalSession starts a local session's driver in the background, a
// process of its own that outlives this command (and the terminal), and
// returns once it takes clients.
func startLocalSession(c *cli.Context, conf *config.Config) error {
	id := localmode.NewAppID()
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
	if err := settings.WriteFile(filepath.Join(dir, localmode.SessionSettings), conf, nil); err != nil {
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
			if r.UI != "" {
				fmt.Fprintf(c.App.Writer, "UI=%s\n", r.UI)
			}
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
