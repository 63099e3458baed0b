package deploy

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/executor/wire"
)

// sessionJob is the request that submits the job of this command line to
// a session: the spec as written (the short form's as JSON), the stages'
// defaults from this client's configuration, and the name and pool it
// settles. A job's pool is --pool, else its spec's, else
// spindle.scheduler.pool, else "default".
func sessionJob(c *cli.Context, conf *config.Config, job *jobspec.Job) (*wire.SubmitJob, error) {
	d, err := jobDefaults(conf)
	if err != nil {
		return nil, err
	}
	req := &wire.SubmitJob{TaskCpus: int32(d.CPUs), TaskGpus: d.GPUs, MaxAttempts: int32(d.MaxAttempts), Follow: !c.Bool("detach")}
	if c.IsSet("tasks") {
		if req.Spec, err = job.MarshalSpec(); err != nil {
			return nil, err
		}
		req.Source = "command line"
	} else {
		req.Source = c.Args().First()
		if req.Spec, err = os.ReadFile(req.Source); err != nil {
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

// runSessionSubmit sends the job to session id and follows it like a
// local job, returning an error unless it succeeded. An interrupt asks,
// on a terminal, whether to cancel the job or leave it running; elsewhere
// it cancels it. --detach returns once the session has the job.
func runSessionSubmit(c *cli.Context, conf *config.Config, job *jobspec.Job, id string) error {
	req, err := sessionJob(c, conf, job)
	if err != nil {
		return err
	}
	client, r, err := sessionClient(c.Context, id)
	if err != nil {
		return err
	}
	// The interrupt is this command's to handle: the connection that
	// follows the job must outlive it.
	ctx, stop := context.WithCancelCause(context.WithoutCancel(c.Context))
	defer stop(nil)
	var jobID int64 = -1
	accepted := make(chan struct{})
	progress := newProgressPrinter(c.App.Writer)
	go func() {
		select {
		case <-c.Context.Done():
		case <-ctx.Done():
			return
		}
		select {
		case <-accepted:
		case <-ctx.Done():
			return
		}
		if askToCancel(c, jobID) {
			if _, err := client.Cancel(ctx, jobID, "by its submitter (interrupted)"); err != nil {
				fmt.Fprintf(c.App.ErrWriter, "spindle: cancelling job %d: %v\n", jobID, err)
			}
			return // follow it to its end
		}
		stop(fmt.Errorf("job %d left running in session %s (spindle jobs %s)", jobID, id, id))
	}()
	last, err := client.Submit(ctx, req, func(a *wire.JobAccepted) {
		jobID = a.GetJobId()
		close(accepted)
		for _, n := range a.GetNotices() {
			fmt.Fprintln(c.App.ErrWriter, "spindle: "+n)
		}
		fmt.Fprintf(c.App.Writer, "job %d submitted to session %s\n", jobID, id)
	}, func(u *wire.JobUpdate) {
		j := u.GetJob()
		progress.update(core.Progress{Job: j.GetName(), Tasks: int(j.GetTasks()), Succeeded: int(j.GetSucceeded()), Running: int(j.GetRunning()),
			Failed: int(j.GetFailedAttempts()), Executors: int(u.GetExecutors()), Elapsed: time.Duration(j.GetDurationMs()) * time.Millisecond})
	})
	progress.finish()
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
			fmt.Fprintln(c.App.Writer, cause)
			return nil
		}
		return err
	}
	if !req.GetFollow() {
		return nil
	}
	logs := fmt.Sprintf("yarn logs -applicationId %s", id)
	if !r.Yarn() {
		logs = filepath.Dir(r.Log)
	}
	j := last.GetJob()
	sum := core.Summary{Job: j.GetName(), Succeeded: j.GetState() == string(core.JobSucceeded), Reason: j.GetReason(), Tasks: int(j.GetTasks()),
		Attempts: int(last.GetAttempts()), Failures: int(j.GetFailedAttempts()), Retries: int(last.GetRetries()),
		Duration: time.Duration(j.GetDurationMs()) * time.Millisecond, OutputCut: last.GetOutputCut()}
	printSummary(c.App.Writer, sum, logs)
	if !sum.Succeeded {
		if j.GetState() == string(core.JobCancelled) {
			return fmt.Errorf("job %s %s", sum.Job, sum.Reason) // "cancelled: why"
		}
		return fmt.Errorf("job %s failed: %s", sum.Job, sum.Reason)
	}
	return nil
}

// askToCancel asks, on a terminal, whether an interrupted submit cancels
// its job; elsewhere the answer is yes, as interrupting a local job ends
// it.
func askToCancel(c *cli.Context, job int64) bool {
	if !isTerminal(os.Stdin) || !isTerminal(c.App.Writer) {
		return true
	}
	// On a line of its own: the progress bar may hold this one.
	fmt.Fprintf(c.App.Writer, "\ncancel job %d? [y/N] ", job)
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	if err != nil {
		return false
	}
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes"
}
