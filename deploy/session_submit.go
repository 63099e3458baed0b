package deploy

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/session"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/summary"
	"github.com/spindle-yarn/spindle/executor/wire"
)

// sessionJob is the request that submits the job of this command line to
// a session: the spec as written (read once; the short form's as JSON),
// the stages' defaults from this client's configuration, and the name and
// pool it settles. A job's pool is --pool, else its spec's, else
// spindle.scheduler.pool, else "default".
func sessionJob(c *cli.Context, conf *config.Config, job loadedJob) (*wire.SubmitJob, error) {
	d, err := settings.JobDefaults(conf)
	if err != nil {
		return nil, err
	}
	req := &wire.SubmitJob{TaskCpus: int32(d.CPUs), TaskGpus: d.GPUs, MaxAttempts: int32(d.MaxAttempts), Follow: !c.Bool("detach"),
		Source: job.Source, Spec: job.Text}
	if job.Text == nil {
		if req.Spec, err = job.MarshalSpec(); err != nil {
			return nil, err
		}
	}
	if req.Name, err = conf.String("spindle.app.name"); err != nil {
		return nil, err
	}
	if c.IsSet("pool") {
		req.Pool = c.String("pool")
	} else if req.DefaultPool, err = conf.String("spindle.scheduler.pool"); err != nil {
		return nil, err
	}
	return req, nil
}

// submitSignals is where a session submit hears its signals: the
// process's own SIGINT, SIGTERM and SIGHUP (a test's, in tests), taken
// over from the command's InterruptContext, until stop.
var submitSignals = func() (sigs <-chan os.Signal, stop func()) {
	return takeSignals(syscall.SIGHUP)
}

// runSessionSubmit sends the job to session id and follows it like a
// local job, returning an error unless it succeeded. Signals, at every
// moment (docs/sessions.md):
//
//   - before the session has the job, SIGINT, SIGTERM and SIGHUP give up,
//     leaving no job behind (one the session took meanwhile is cancelled);
//     SIGHUP does not with --detach, whose job is meant to outlive the
//     terminal;
//   - while following it, SIGINT on a terminal asks whether to cancel the
//     job, and elsewhere cancels it, as do SIGTERM and SIGHUP (the
//     terminal is gone: nobody follows the job any more);
//   - a second signal ends the client at once.
func runSessionSubmit(c *cli.Context, conf *config.Config, job loadedJob, id string) error {
	if err := refuseSessionShaping(c, conf, c.App.ErrWriter); err != nil {
		return err
	}
	req, err := sessionJob(c, conf, job)
	if err != nil {
		return err
	}
	sigs, stop := submitSignals()
	defer stop()
	s := &sessionSubmit{c: c, conf: conf, id: id, req: req, sigs: sigs}
	return s.run(context.WithoutCancel(c.Context))
}

// sessionSubmit is one `submit --session`: the job's way to the session,
// then its following, with what signals do at each step.
type sessionSubmit struct {
	c    *cli.Context
	conf *config.Config
	id   string
	req  *wire.SubmitJob
	sigs <-chan os.Signal
}

// earlySignal is a signal that came before submitSignals listened: it
// went to the command's context alone (InterruptContext), which the
// submit does not follow, and is the submit's first signal.
func (s *sessionSubmit) earlySignal() os.Signal {
	var in Interrupted
	if s.c.Context.Err() == nil || !errors.As(context.Cause(s.c.Context), &in) {
		return nil
	}
	return in.Signal
}

// signalCause is the cause a signal gives the context it ends.
func signalCause(sig os.Signal) error { return fmt.Errorf("interrupted by %v", sig) }

func (s *sessionSubmit) run(base context.Context) error {
	// abort ends everything, at a second signal; giveUp ends the way to
	// the session, at the first.
	abort, stopAll := context.WithCancelCause(base)
	defer stopAll(nil)
	giveUp, stopConnecting := context.WithCancelCause(abort)
	defer stopConnecting(nil)
	first := s.earlySignal()
	if first != nil {
		stopConnecting(signalCause(first))
	}
	accepted := make(chan struct{})
	connecting := make(chan struct{})
	go func() {
		defer close(connecting)
		for {
			select {
			case sig := <-s.sigs:
				if sig == syscall.SIGHUP && !s.req.GetFollow() {
					continue // --detach: the job is meant to outlive the terminal
				}
				if first != nil {
					stopAll(signalCause(sig))
					return
				}
				first = sig
				stopConnecting(signalCause(sig))
			case <-accepted:
				return
			case <-abort.Done():
				return
			}
		}
	}()
	// A session between attempts is waited for, as a follower waits.
	var r session.Record
	find := func(ctx context.Context) (client session.Client, err error) {
		client, r, err = findSession(ctx, s.id, s.conf)
		return client, err
	}
	client, sub, err := session.SubmitWithin(giveUp, abort, find, s.req, session.RefindWithin,
		func(n string) { fmt.Fprintln(s.c.App.ErrWriter, "spindle: "+n) })
	close(accepted)
	<-connecting // first is settled
	if err != nil {
		if first != nil && errors.Is(err, session.ErrNotSent) {
			return fmt.Errorf("%v: nothing was submitted", signalCause(first))
		}
		return err
	}
	defer sub.Close()
	for _, n := range sub.Notices {
		fmt.Fprintln(s.c.App.ErrWriter, "spindle: "+n)
	}
	if first != nil {
		// Given up while the session took the job: it goes too.
		reason := fmt.Sprintf("by its submitter (%v while submitting)", first)
		if _, err := client.Cancel(abort, sub.JobID, reason); err != nil {
			return fmt.Errorf("%v while submitting, and job %d, which session %s took meanwhile, could not be cancelled: %w", first, sub.JobID, s.id, err)
		}
		return fmt.Errorf("%v while submitting: job %d, which session %s took meanwhile, is cancelled", first, sub.JobID, s.id)
	}
	fmt.Fprintf(s.c.App.Writer, "job %d submitted to session %s\n", sub.JobID, s.id)
	if !s.req.GetFollow() {
		return nil
	}
	return s.follow(abort, stopAll, client, r, sub)
}

// follow prints the job's progress and then its summary, acting on
// signals meanwhile; abort ends it at once (stop cancels abort).
func (s *sessionSubmit) follow(abort context.Context, stop context.CancelCauseFunc, client session.Client, r session.Record, sub *session.Submission) error {
	jobID := sub.JobID
	f := session.FollowJob(abort, sub, s.refind(r))
	progress := newProgressPrinter(s.c.App.Writer)
	defer progress.finish()
	var handled os.Signal // the first signal, being acted on
	asking := false       // the user is asked whether to cancel the job
	decided := make(chan bool, 1)
	for {
		select {
		case u := <-f.Updates:
			j := u.GetJob()
			if !asking {
				progress.update(core.Progress{Job: j.GetName(), Tasks: int(j.GetTasks()), Succeeded: int(j.GetSucceeded()), Running: int(j.GetRunning()),
					Failed: int(j.GetFailedAttempts()), Executors: int(u.GetExecutors()), Elapsed: time.Duration(j.GetDurationMs()) * time.Millisecond})
			}
			if u.GetEnded() {
				progress.finish()
				return s.summary(r, u)
			}
		case client = <-f.Moved:
		case err := <-f.Failed:
			progress.finish()
			return s.lost(r, jobID, err)
		case sig := <-s.sigs:
			progress.finish()
			if handled != nil {
				stop(signalCause(sig))
				if asking {
					return fmt.Errorf("%v again: job %d left running in session %s (spindle jobs %s)", signalCause(sig), jobID, s.id, s.id)
				}
				return fmt.Errorf("%v again: job %d is being cancelled; not following it to its end (spindle jobs %s)", signalCause(sig), jobID, s.id)
			}
			handled = sig
			if sig == syscall.SIGINT && askingOnTerminal(s.c) {
				asking = true
				go func() { decided <- askToCancel(s.c, jobID) }()
				continue
			}
			s.cancel(abort, client, jobID, sig)
		case yes := <-decided:
			asking = false
			if !yes {
				stop(errors.New("left running"))
				fmt.Fprintf(s.c.App.Writer, "job %d left running in session %s (spindle jobs %s)\n", jobID, s.id, s.id)
				return nil
			}
			s.cancel(abort, client, jobID, handled)
		case <-abort.Done():
			return context.Cause(abort)
		}
	}
}

// cancel cancels the followed job for sig, which is then followed to its
// end.
func (s *sessionSubmit) cancel(ctx context.Context, client session.Client, job int64, sig os.Signal) {
	if _, err := client.Cancel(ctx, job, fmt.Sprintf("by its submitter (%v)", signalName(sig))); err != nil {
		fmt.Fprintf(s.c.App.ErrWriter, "spindle: cancelling job %d: %v\n", job, err)
	}
}

// signalName is how a cancel's reason names sig: "interrupted",
// "terminated", "hangup" (its terminal closed).
func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "interrupted"
	case syscall.SIGTERM:
		return "terminated"
	case syscall.SIGHUP:
		return "hangup: its terminal closed"
	}
	return sig.String()
}

// summary prints how the followed job ended, and is an error unless it
// succeeded.
func (s *sessionSubmit) summary(r session.Record, last *wire.JobUpdate) error {
	logs := fmt.Sprintf("yarn logs -applicationId %s", s.id)
	if !r.Yarn() {
		logs = filepath.Dir(r.Log)
	}
	j := last.GetJob()
	sum := core.Summary{Job: j.GetName(), Succeeded: j.GetState() == string(core.JobSucceeded), Cancelled: j.GetState() == string(core.JobCancelled),
		Reason: j.GetReason(), Tasks: int(j.GetTasks()), Attempts: int(last.GetAttempts()), Failures: int(j.GetFailedAttempts()),
		Retries: int(last.GetRetries()), Duration: time.Duration(j.GetDurationMs()) * time.Millisecond, OutputCut: last.GetOutputCut(),
		OutputCutMore: int(last.GetOutputCutMore())}
	summary.Print(s.c.App.Writer, sum, logs)
	switch {
	case sum.Succeeded:
		return nil
	case sum.Cancelled:
		return fmt.Errorf("job %s %s", sum.Job, sum.Reason) // "cancelled: why"
	}
	return fmt.Errorf("job %s failed: %s", sum.Job, sum.Reason)
}

// lost says what became of a session that went away while its client
// followed a job.
func (s *sessionSubmit) lost(r session.Record, job int64, err error) error {
	if !errors.Is(err, session.ErrLost) {
		return err
	}
	if !r.Yarn() && r.PID > 0 && session.ExitedWithin(r.PID, time.Second) {
		return fmt.Errorf("session %s ended before job %d did: its driver (pid %d) has exited (its log: %s)", s.id, job, r.PID, r.Log)
	}
	return fmt.Errorf("the connection to session %s ended before job %d did; the job may still run (spindle jobs %s tells): %w", s.id, job, s.id, err)
}

// refind is how following a job finds session r again after losing it:
// a YARN session's next attempt takes over its jobs; a local session has
// none (nil). What the following says as it looks is printed.
func (s *sessionSubmit) refind(r session.Record) *session.Refind {
	if !r.Yarn() {
		return nil
	}
	find := func(ctx context.Context) (session.Client, error) {
		client, _, err := findSession(ctx, s.id, s.conf)
		return client, err
	}
	notice := func(n string) { fmt.Fprintln(s.c.App.ErrWriter, "spindle: "+n) }
	return &session.Refind{Session: s.id, Find: find, Notice: notice}
}

// askingOnTerminal says whether an interrupt asks the user, on a terminal,
// whether to cancel the job.
func askingOnTerminal(c *cli.Context) bool {
	return isTerminal(os.Stdin) && isTerminal(c.App.Writer)
}

// askToCancel asks, on a terminal, whether an interrupted submit cancels
// its job.
func askToCancel(c *cli.Context, job int64) bool {
	// On a line of its own: the progress bar may hold this one.
	fmt.Fprintf(c.App.Writer, "\ncancel job %d? [y/N] ", job)
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	if err != nil {
		return false
	}
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes"
}
