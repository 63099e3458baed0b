package deploy

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/session"
	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// sessionStartTimeout bounds the wait for a YARN session's AM to register.
const sessionStartTimeout = 3 * time.Minute

// startYarnSession submits a session's application and returns once its
// ApplicationMaster takes clients. Its secret is kept in the user's state
// directory and handed to the AM in its credentials.
func startYarnSession(c *cli.Context, conf *config.Config) error {
	mode, err := conf.Enum("spindle.yarn.mode")
	if err != nil {
		return err
	}
	if mode == "fine" {
		return errors.New("spindle.yarn.mode=fine shapes executors after one job's stages; a session takes any job: use coarse")
	}
	log, err := logger(c, conf, true)
	if err != nil {
		return err
	}
	name, err := conf.String("spindle.app.name")
	if err != nil {
		return err
	}
	if name == "" {
		name = "spindle-session"
	}
	files, err := shippedFiles(c.String("files"))
	if err != nil {
		return err
	}
	secret := wire.NewSecret()
	app, err := yarnapp.Submit(c.Context, conf, log, yarnapp.App{Name: name, SessionSecret: secret, Files: files}, c.App.Writer)
	if err != nil {
		return err
	}
	defer app.Close()
	// Recorded at once: a start interrupted from here on leaves a session
	// that `spindle session stop` (or `spindle kill`) can end.
	if _, err := session.Create(app.AppID, secret); err != nil {
		return err
	}
	if err := session.Save(session.Record{ID: app.AppID, Master: "yarn", Name: name, Started: time.Now()}); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "submitted %s\n", app.AppID)
	ctx, cancel := context.WithTimeout(c.Context, sessionStartTimeout)
	defer cancel()
	for {
		r, err := yarnapp.Report(ctx, app.RM, app.ID)
		if err == nil {
			switch r.GetYarnApplicationState() {
			case hadoopyarn.YarnApplicationStateProto_RUNNING:
				if r.GetRpcPort() > 0 {
					fmt.Fprintf(c.App.Writer, "session %s running: clients at %s:%d, tracking URL %s\n", app.AppID, r.GetHost(), r.GetRpcPort(), r.GetTrackingUrl())
					fmt.Fprintf(c.App.Writer, "UI=%s\n", r.GetTrackingUrl())
					fmt.Fprintf(c.App.Writer, "SESSION=%s\n", app.AppID)
					return nil
				}
			case hadoopyarn.YarnApplicationStateProto_FINISHED, hadoopyarn.YarnApplicationStateProto_FAILED, hadoopyarn.YarnApplicationStateProto_KILLED:
				session.Remove(app.AppID)
				app.Unstage(c.Context, log)
				return fmt.Errorf("session %s ended before it took clients: %s (%s): %s", app.AppID, yarnapp.State(r), yarnapp.FinalStatus(r), r.GetDiagnostics())
			}
		}
		select {
		case <-ctx.Done():
			if c.Context.Err() != nil {
				err := yarnapp.KillInterrupted(c.App.Writer, app.RM, app.ID)
				session.Remove(app.AppID)
				app.Unstage(c.Context, log)
				return err
			}
			return fmt.Errorf("session %s did not take clients within %v; end it with spindle session stop %s, or spindle kill %s", app.AppID, sessionStartTimeout, app.AppID, app.AppID)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
