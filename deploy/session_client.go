package deploy

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/session"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/yarnpb/kerberos"
)

// findSession finds session id for a client that logs in to YARN as conf
// says (nil: as the defaults file says).
func findSession(ctx context.Context, id string, conf *config.Config) (session.Client, session.Record, error) {
	return session.Find(ctx, id, func() (kerberos.Login, error) { return sessionLogin(conf) })
}

// sessionLogin is how a session's client logs in to YARN: as conf says
// (nil: as the defaults file says).
func sessionLogin(conf *config.Config) (kerberos.Login, error) {
	if conf == nil {
		return defaultsLogin()
	}
	return settings.KerberosLogin(conf)
}

func jobsCommand() *cli.Command {
	return &cli.Command{
		Name:      "jobs",
		Usage:     "list a session's jobs",
		UsageText: "spindle jobs SESSION",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return errors.New("want the session's id: spindle jobs SESSION")
			}
			client, _, err := findSession(c.Context, c.Args().First(), nil)
			if err != nil {
				return err
			}
			jobs, err := client.Jobs(c.Context)
			if err != nil {
				return err
			}
			printJobs(c, jobs)
			return nil
		},
	}
}

// printJobs writes jobs as a table.
func printJobs(c *cli.Context, jobs []*wire.JobInfo) {
	tw := tabwriter.NewWriter(c.App.Writer, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "JOB\tNAME\tPOOL\tSTATE\tTASKS\tDURATION\tREASON")
	for _, j := range jobs {
		reason := j.GetReason()
		if reason == "" {
			reason = j.GetWaiting() // a running job: why its tasks wait
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d/%d\t%s\t%s\n", j.GetId(), j.GetName(), j.GetPool(), j.GetState(), j.GetSucceeded(), j.GetTasks(),
			(time.Duration(j.GetDurationMs()) * time.Millisecond).Round(time.Second/10), reason)
	}
	tw.Flush()
}

func cancelCommand() *cli.Command {
	return &cli.Command{
		Name:      "cancel",
		Usage:     "cancel one of a session's jobs; its other jobs go on",
		UsageText: "spindle cancel SESSION JOB",
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return errors.New("want the session's id and the job's: spindle cancel SESSION JOB")
			}
			job, err := strconv.ParseInt(c.Args().Get(1), 10, 64)
			if err != nil || job < 0 {
				return fmt.Errorf("%q is not a job id: want the number spindle jobs lists", c.Args().Get(1))
			}
			client, _, err := findSession(c.Context, c.Args().First(), nil)
			if err != nil {
				return err
			}
			j, err := client.Cancel(c.Context, job, "by spindle cancel")
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "job %d (%s) cancelled\n", j.GetId(), j.GetName())
			return nil
		},
	}
}

func runSessionStop(c *cli.Context) error {
	if c.NArg() != 1 {
		return errors.New("want the session's id: spindle session stop SESSION")
	}
	id := c.Args().First()
	client, r, err := findSession(c.Context, id, nil)
	if err != nil {
		return err
	}
	jobs, err := client.Stop(c.Context, "spindle session stop")
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if j.GetState() == "RUNNING" {
			fmt.Fprintf(c.App.Writer, "job %d (%s) cancelled\n", j.GetId(), j.GetName())
		}
	}
	// Wait for it to be over: its executors gone, and on YARN the
	// application finished.
	var rm *session.YarnApp
	if r.Yarn() {
		login, err := sessionLogin(nil)
		if err != nil {
			return err
		}
		if rm, err = session.ConnectRM(id, login); err != nil {
			return err
		}
		defer rm.Close()
	}
	for deadline := time.Now().Add(2 * time.Minute); ; {
		over, state, err := session.Over(c.Context, r, rm)
		if err != nil {
			return err
		}
		if over {
			if r.Yarn() {
				session.Remove(id)
			}
			fmt.Fprintf(c.App.Writer, "session %s stopped%s\n", id, state)
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("session %s was told to stop, but has not ended within 2 minutes", id)
		}
		select {
		case <-c.Context.Done():
			return context.Cause(c.Context)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
