package deploy

import (
	"context"
	"fmt"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// runYarn submits job to YARN and follows it to its end.
//
// An interrupt (SIGINT or SIGTERM, which cancel c.Context) stops it:
// before the submission, the staged files are removed; while it follows
// the application, the application is killed, as a local job is (--no-wait
// submits without following).
func runYarn(c *cli.Context, conf *config.Config, log logrus.FieldLogger, job loadedJob) error {
	files, err := shippedFiles(c.String("files"))
	if err != nil {
		return err
	}
	app, err := yarnapp.Submit(c.Context, conf, log, yarnapp.App{Job: job.Job, SpecText: job.Text, Name: job.Name, Files: files}, c.App.Writer)
	if err != nil {
		return err
	}
	defer app.Close()
	fmt.Fprintf(c.App.Writer, "submitted %s\n", app.AppID)
	if !c.Bool("wait") || c.Bool("no-wait") {
		return nil
	}
	reconnect, err := settings.ReconnectRM(app.Conn.Conf)
	if err != nil {
		return err
	}
	ctx, w := c.Context, c.App.Writer
	err = follow(ctx, app.AppID, func(ctx context.Context) (*hadoopyarn.ApplicationReportProto, error) {
		return yarnapp.Report(ctx, app.RM, app.ID)
	}, w, isTerminal(w), time.Second, reconnect.Wait)
	if ctx.Err() != nil {
		err = yarnapp.KillInterrupted(c.App.Writer, app.RM, app.ID)
	}
	// The AM removes the staging directory when it succeeds; an application
	// that failed or was killed may have left it.
	app.Unstage(ctx, log)
	return err
}
