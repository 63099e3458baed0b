package deploy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strconv"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/session"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/kerberos"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// sessionClient finds session id from the user's record of it: a local
// session's socket is in the record, a YARN session's address in its
// application report (the AM's host and RPC port), which the RM gives a
// user logged in as conf says (nil: as the defaults file says).
func sessionClient(ctx context.Context, id string, conf *config.Config) (session.Client, session.Record, error) {
	r, secret, err := session.Load(id)
	if err != nil {
		return session.Client{}, r, err
	}
	if !r.Yarn() {
		if r.PID > 0 && exited(r.PID) {
			session.Remove(id)
			return session.Client{}, r, fmt.Errorf("session %s is gone: its driver (pid %d) is not running; its record is removed", id, r.PID)
		}
		return session.Client{Network: "unix", Addr: r.Socket, Secret: secret}, r, nil
	}
	rm, err := sessionRM(id, conf)
	if err != nil {
		return session.Client{}, r, err
	}
	defer rm.Close()
	report, err := rm.report(ctx)
	if err != nil {
		return session.Client{}, r, err
	}
	if s := report.GetYarnApplicationState(); s != hadoopyarn.YarnApplicationStateProto_RUNNING {
		why := ""
		if d := report.GetDiagnostics(); d != "" && d != yarnapp.Unavailable {
			why = ": " + d
		}
		return session.Client{}, r, fmt.Errorf("session %s is not running: its application is %s (%s)%s", id, yarnapp.State(report), yarnapp.FinalStatus(report), why)
	}
	// The RM shows a running application's tracking URL to every user
	// who may view it; to others, a summary with Unavailable in its place
	// and no AM address or client token (RMAppImpl's report without
	// access).
	if report.GetTrackingUrl() == yarnapp.Unavailable {
		return session.Client{}, r, fmt.Errorf("session %s: the ResourceManager shows %s only its summary: the application's ACLs do not let this user view it "+
			"(its owner lists who may in spindle.ui.view.acls, with spindle.acls.enable)", id, rm.conn.User)
	}
	if report.GetRpcPort() <= 0 {
		return session.Client{}, r, fmt.Errorf("session %s: its application master has not said where it takes clients yet", id)
	}
	client := session.Client{Addr: net.JoinHostPort(report.GetHost(), strconv.Itoa(int(report.GetRpcPort()))), Secret: secret}
	// On a secure cluster the RM hands a client-to-AM token to those the
	// application's ACLs let view it; the session wants it.
	if t := report.GetClientToAmToken(); t != nil {
		client.Token = &wire.ClientToken{Identifier: t.GetIdentifier(), Password: t.GetPassword()}
	}
	return client, r, nil
}

// yarnSession reaches a YARN session's application through the RM: one
// connection, for as many reports as its user wants.
type yarnSession struct {
	conn *yarnapp.Connection
	id   *hadoopyarn.ApplicationIdProto
}

// sessionRM connects to the RM of YARN session id, logged in as conf
// says (nil: as the defaults file says).
func sessionRM(id string, conf *config.Config) (yarnSession, error) {
	appID, err := yarn.ParseApplicationID(id)
	if err != nil {
		return yarnSession{}, err
	}
	var login kerberos.Login
	if conf == nil {
		login, err = defaultsLogin()
	} else {
		login, err = settings.KerberosLogin(conf)
	}
	if err != nil {
		return yarnSession{}, err
	}
	conn, err := yarnapp.Connect(login)
	if err != nil {
		return yarnSession{}, err
	}
	return yarnSession{conn, appID}, nil
}

// report is the session's application report.
func (y yarnSession) report(ctx context.Context) (*hadoopyarn.ApplicationReportProto, error) {
	return yarnapp.Report(ctx, y.conn.RM, y.id)
}

func (y yarnSession) Close() error {
	y.conn.Close()
	return nil
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
			client, _, err := sessionClient(c.Context, c.Args().First(), nil)
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
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d/%d\t%s\t%s\n", j.GetId(), j.GetName(), j.GetPool(), j.GetState(), j.GetSucceeded(), j.GetTasks(),
			(time.Duration(j.GetDurationMs()) * time.Millisecond).Round(time.Second/10), j.GetReason())
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
			client, _, err := sessionClient(c.Context, c.Args().First(), nil)
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
	client, r, err := sessionClient(c.Context, id, nil)
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
	var rm *yarnSession
	if r.Yarn() {
		y, err := sessionRM(id, nil)
		if err != nil {
			return err
		}
		defer y.Close()
		rm = &y
	}
	for deadline := time.Now().Add(2 * time.Minute); ; {
		over, state, err := sessionOver(c.Context, r, rm)
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

// sessionOver says whether a stopped session has ended: a local one's
// driver has exited; a YARN one's application (rm reaches it) has
// finished, with its state and final status, as " (FINISHED, SUCCEEDED)".
func sessionOver(ctx context.Context, r session.Record, rm *yarnSession) (bool, string, error) {
	if rm == nil {
		return exited(r.PID), "", nil
	}
	report, err := rm.report(ctx)
	if err != nil {
		return false, "", err
	}
	switch report.GetYarnApplicationState() {
	case hadoopyarn.YarnApplicationStateProto_FINISHED, hadoopyarn.YarnApplicationStateProto_FAILED, hadoopyarn.YarnApplicationStateProto_KILLED:
		return true, fmt.Sprintf(" (%s, %s)", yarnapp.State(report), yarnapp.FinalStatus(report)), nil
	}
	return false, "", nil
}

// exited says whether process pid has ended: it is gone, or a zombie
// nobody has reaped yet (a background driver's parent is long gone).
func exited(pid int) bool {
	if syscall.Kill(pid, 0) == syscall.ESRCH {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	// pid (comm) state ...: comm may hold spaces and parentheses.
	rest := stat[bytes.LastIndexByte(stat, ')')+1:]
	return len(rest) > 1 && (rest[1] == 'Z' || rest[1] == 'X')
}

// exitedWithin waits up to d for process pid to end, as a connection it
// held ends a moment before its exit shows.
func exitedWithin(pid int, d time.Duration) bool {
	for deadline := time.Now().Add(d); ; time.Sleep(20 * time.Millisecond) {
		if exited(pid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}
