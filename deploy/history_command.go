package deploy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/am/webui"
	"github.com/spindle-yarn/spindle/deploy/localmode"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/staging"
)

// historyTimeout bounds reading an event log.
const historyTimeout = 2 * time.Minute

func historyCommand() *cli.Command {
	return &cli.Command{
		Name:      "history",
		Usage:     "show an application's jobs, stages and executors from its event log, after it ended: its web UI on a loopback port, or --text; with no APP_ID, list the applications whose logs are kept",
		ArgsUsage: "[APP_ID]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "text", Usage: "print a summary instead of serving the UI"},
			&cli.IntFlag{Name: "port", Usage: "the UI's loopback port (0: any free port)"},
			&cli.StringFlag{Name: "properties-file", Usage: "spark-defaults.conf-style settings (default $SPINDLE_CONF_DIR/spindle-defaults.conf)"},
			&cli.StringSliceFlag{Name: "conf", Usage: "KEY=VALUE, repeatable (spindle.eventLog.dir, say); wins over the properties file"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return listHistory(c)
			}
			if c.NArg() != 1 {
				return fmt.Errorf("want one application id (application_… or local-…), or none to list them; got %d arguments", c.NArg())
			}
			id := c.Args().First()
			s, err := loadHistory(c, id)
			if err != nil {
				return err
			}
			if c.Bool("text") {
				writeHistory(c.App.Writer, s)
				return nil
			}
			o := webui.Options{Store: s}
			if strings.HasPrefix(id, "local-") {
				// The executors' task files, while they are kept: the
				// stage page's links work as they did live. On YARN
				// each executor's own link (its NodeManager's page of
				// the container's logs) stays as the log has it.
				o.TaskFiles = localmode.TaskFiles(id)
			}
			return serveHistory(c, o)
		},
	}
}

// loadHistory reads an application's event log: a YARN application's
// from fs.defaultFS (HADOOP_CONF_DIR), a local one's from this machine.
func loadHistory(c *cli.Context, appID string) (*history.Store, error) {
	conf, err := loadConfig(c.String("properties-file"), c.StringSlice("conf"))
	if err != nil {
		return nil, err
	}
	ui, err := settings.UISettings(conf)
	if err != nil {
		return nil, err
	}
	var store history.SegmentStore
	var where string
	switch {
	case strings.HasPrefix(appID, "local-"):
		dir, err := staging.LocalEventLogDir(ui.EventLogDir, appID)
		if err != nil {
			return nil, err
		}
		if store, err = staging.Local().Segments(dir); err != nil {
			return nil, err
		}
		where = dir
	case strings.HasPrefix(appID, "application_"):
		conn, err := connectWithDefaults()
		if err != nil {
			return nil, err
		}
		defer conn.Close()
		st, err := staging.New(conn.Conf, conn.User, conn.Identity)
		if err != nil {
			return nil, err
		}
		defer st.Close()
		where = staging.EventLogDir(ui.EventLogDir, conn.User, appID)
		if store, err = st.Segments(where); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%q is not an application id: want application_<timestamp>_<number> (YARN) or local-… (local mode)", appID)
	}
	ctx, cancel := context.WithTimeout(c.Context, historyTimeout)
	defer cancel()
	s, err := history.Load(ctx, store, ui.Limits)
	if err != nil {
		return nil, fmt.Errorf("the event log of %s in %s: %w", appID, where, err)
	}
	return s, nil
}

// serveHistory serves the UI o says on a loopback port until
// interrupted.
func serveHistory(c *cli.Context, o webui.Options) error {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", c.Int("port")))
	if err != nil {
		return err
	}
	// Loopback, and to the token printed to the owner's terminal alone.
	owner := webui.NewOwnerOnly(ln.Addr())
	srv := &http.Server{Handler: owner.Handler(webui.Handler(o)), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(c.App.Writer, "UI=%s\n", owner.URL(ln.Addr()))
	go func() {
		<-c.Context.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
