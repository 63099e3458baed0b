package deploy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/localmode"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// listHistory lists the applications whose event logs are kept: this
// machine's local ones and, where a Hadoop configuration is set, the
// YARN event log directory's. It cleans each directory first, as a
// driver does when it starts (docs/ui.md, "What is kept"), saying what
// it removed on stderr.
func listHistory(c *cli.Context) error {
	conf, err := loadConfig(c.String("properties-file"), c.StringSlice("conf"))
	if err != nil {
		return err
	}
	ui, err := settings.UISettings(conf)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.Context, historyTimeout)
	defer cancel()
	var apps []staging.LoggedApp
	var errs []error
	tidy := func(where string, kept []staging.LoggedApp, removed []string, err error) {
		apps = append(apps, kept...)
		if len(removed) > 0 {
			fmt.Fprintf(c.App.ErrWriter, "spindle: removed the event logs of %s (%s: spindle.eventLog.maxApps %d, maxAge %v)\n",
				strings.Join(removed, ", "), where, ui.Retention.MaxApps, ui.Retention.MaxAge)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
		}
	}
	root, err := staging.LocalEventLogRoot(ui.EventLogDir)
	if err != nil {
		return err
	}
	kept, removed, err := localmode.CleanEventLogs(ctx, root, ui.Retention, time.Now())
	tidy(root, kept, removed, err)
	if hadoopConfigured() {
		where, kept, removed, err := tidyYARNEventLogs(ctx, ui)
		tidy(where, kept, removed, err)
	}
	slices.SortStableFunc(apps, func(a, b staging.LoggedApp) int { return a.Summary.Started.Compare(b.Summary.Started) })
	if err := writeAppList(c.App.Writer, apps); err != nil {
		return err
	}
	for _, a := range apps {
		if a.Err != nil {
			fmt.Fprintf(c.App.ErrWriter, "spindle: %s: its event log does not read: %v\n", a.ID, a.Err)
		}
	}
	return errors.Join(errs...)
}

// hadoopConfigured says whether a Hadoop configuration is set, which
// the YARN event log directory is found with (hadoopconf.FromEnvironment).
func hadoopConfigured() bool {
	for _, name := range []string{"HADOOP_CONF_DIR", "YARN_CONF_DIR", "HADOOP_HOME"} {
		if os.Getenv(name) != "" {
			return true
		}
	}
	return false
}

// tidyYARNEventLogs cleans and lists the YARN event log directory on
// fs.defaultFS. An application whose log has no end is running unless
// the RM says it ended, or knows it no more.
func tidyYARNEventLogs(ctx context.Context, ui settings.UI) (where string, kept []staging.LoggedApp, removed []string, err error) {
	conn, err := connectWithDefaults()
	if err != nil {
		return "YARN", nil, nil, err
	}
	defer conn.Close()
	where = staging.EventLogRoot(ui.EventLogDir, conn.User)
	st, err := staging.New(conn.Conf, conn.User, conn.Identity)
	if err != nil {
		return where, nil, nil, err
	}
	defer st.Close()
	dir, err := st.EventLogs(where)
	if err != nil {
		return where, nil, nil, err
	}
	kept, removed, err = dir.Tidy(ctx, ui.Retention, time.Now(), func(id string) bool { return yarnRunning(ctx, conn.RM, id) })
	return where, kept, removed, err
}

// yarnRunning says whether application id may still run: unless the RM
// says it ended, or does not know it (it ended long ago, or the RM was
// replaced without its state), it may.
func yarnRunning(ctx context.Context, rm *yarn.ApplicationClient, id string) bool {
	appID, err := yarn.ParseApplicationID(id)
	if err != nil {
		return true
	}
	r, err := rm.GetApplicationReport(ctx, &hadoopyarn.GetApplicationReportRequestProto{ApplicationId: appID})
	if errors.Is(err, ipc.ErrApplicationNotFound) {
		return false
	}
	return err != nil || !yarnapp.Ended(r.GetApplicationReport())
}

// writeAppList prints applications, one a line.
func writeAppList(w io.Writer, apps []staging.LoggedApp) error {
	at := func(t time.Time) string {
		if t.IsZero() {
			return "-"
		}
		return t.Local().Format("2006-01-02 15:04:05")
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "APPLICATION\tNAME\tUSER\tSTARTED\tENDED\tSTATE")
	for _, a := range apps {
		s := a.Summary
		state := s.State
		switch {
		case a.Err != nil:
			state = "unreadable"
		case a.Dead:
			state = "incomplete" // as Spark's history server says
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", a.ID, orDash(s.Name), orDash(s.User), at(s.Started), at(s.Ended), state)
	}
	return tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
