package deploy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/sim"
	"github.com/spindle-yarn/spindle/deploy/session"
	"github.com/spindle-yarn/spindle/executor/wire"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "run a trace's jobs for real in a session, each task a sleep of its task_s, and report as spindle sim does",
		UsageText: "spindle replay --session ID [--time-scale X] [--json] TRACE.csv   (flags before the trace)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "session", Required: true, Usage: "the session to run the jobs in (spindle session start's SESSION=)"},
			&cli.Float64Flag{Name: "time-scale", Value: 1, Usage: "run X times faster: submit_s and task_s divided by X (compare with spindle sim --time-scale X)"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object, with spindle sim --json's keys"},
		},
		Action: runReplay,
	}
}

// runReplay submits each of the trace's jobs to the session at its
// submit_s (scaled), follows them all to their end, and reports the run in
// spindle sim's terms: job times and the makespan as this client saw them,
// executor time from the session's Stats before and after.
func runReplay(c *cli.Context) error {
	if c.NArg() != 1 {
		// urfave/cli reads no flag after the first argument.
		for _, a := range c.Args().Tail() {
			if strings.HasPrefix(a, "-") {
				return fmt.Errorf("%s comes after the trace %s, where flags are not read; put it first", a, c.Args().First())
			}
		}
		return errors.New("want one trace: spindle replay --session ID [--time-scale X] TRACE.csv")
	}
	scale := c.Float64("time-scale")
	path := c.Args().First()
	jobs, err := readTrace(path, scale)
	if err != nil {
		return err
	}
	reqs := make([]*wire.SubmitJob, len(jobs))
	for i, j := range jobs {
		// Past this the submission time would not fit a Duration.
		if j.SubmitS > sim.MaxDuration.Seconds() {
			return fmt.Errorf("job %q: submitted at %v s (at --time-scale %v): the replay waits at most %v", j.Name, j.SubmitS, scale, sim.MaxDuration)
		}
		spec, err := traceJobSpec(j)
		if err != nil {
			return err
		}
		reqs[i] = &wire.SubmitJob{Spec: spec, Source: fmt.Sprintf("%s, job %s", path, j.Name), Follow: true}
	}
	id := c.String("session")
	client, _, err := findSession(c.Context, id, nil)
	if err != nil {
		return err
	}
	before, err := client.Stats(c.Context)
	if err != nil {
		return err
	}
	start := time.Now()
	ran := make([]replayed, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Go(func() {
			ran[i] = replayJob(c.Context, client, j, reqs[i], start, time.Duration(j.SubmitS*float64(time.Second)))
		})
	}
	wg.Wait()
	if c.Context.Err() != nil {
		return context.Cause(c.Context)
	}
	after, err := client.Stats(c.Context)
	if err != nil {
		return err
	}
	res := replaySummary(ran, before, after)
	if c.Bool("json") {
		b, err := json.Marshal(res)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.App.Writer, "%s\n", b)
	} else {
		printSimResult(c.App.Writer, fmt.Sprintf("replay                 session %s, time scale %v", id, scale), res)
	}
	var failed []string
	for _, r := range ran {
		if r.failure != "" {
			failed = append(failed, fmt.Sprintf("%s (%s)", r.name, r.failure))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d jobs did not succeed: %s", len(failed), len(ran), strings.Join(failed, "; "))
	}
	return nil
}

// traceJobSpec writes a trace job as a JSON spec whose tasks sleep their
// task_s.
func traceJobSpec(j sim.TraceJob) ([]byte, error) {
	job := &jobspec.Job{Name: j.Name, Pool: j.Pool} // no pool: the session's default
	for _, st := range j.Stages {
		job.Stages = append(job.Stages, jobspec.Stage{Name: st.Stage, After: st.After, Tasks: st.Tasks,
			Command: []string{"sleep", strconv.FormatFloat(st.TaskS, 'f', -1, 64)}, CPUs: st.CPUs, GPUs: st.GPUs})
	}
	return job.MarshalSpec()
}

// replayed is one trace job as the replay saw it: when it was submitted
// and when it ended, since the replay began.
type replayed struct {
	name             string
	tasks            int
	submitted, ended time.Duration
	failure          string // empty when it succeeded
}

// replayJob submits a job at its time and follows it to its end. Once
// interrupted it cancels a job the session took: the session is shared,
// and a replay's jobs are of no use to anyone else.
func replayJob(ctx context.Context, client session.Client, job sim.TraceJob, req *wire.SubmitJob, start time.Time, at time.Duration) replayed {
	r := replayed{name: job.Name}
	for _, st := range job.Stages {
		r.tasks += st.Tasks
	}
	wait := time.NewTimer(time.Until(start.Add(at)))
	defer wait.Stop()
	select {
	case <-wait.C:
	case <-ctx.Done():
		r.failure = "not submitted: the replay was interrupted"
		return r
	}
	r.submitted = time.Since(start)
	// An interrupt while the job is on its way still learns its id, and
	// the job is cancelled.
	abort, cancelAbort := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancelAbort()
	sub, err := client.Submit(ctx, abort, req)
	var last *wire.JobUpdate
	if err == nil {
		defer sub.Close()
		last, err = sub.Wait(ctx)
	}
	r.ended = time.Since(start)
	if err != nil {
		r.failure = err.Error()
		if sub != nil && ctx.Err() != nil {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			client.Cancel(cctx, sub.JobID, "its replay was interrupted")
			cancel()
		}
		return r
	}
	j := last.GetJob()
	if j.GetState() != "SUCCEEDED" {
		r.failure = j.GetState() + ": " + j.GetReason()
	}
	return r
}

// replaySummary is the replay in spindle sim's Result, as measured: the
// makespan from the replay's start (the trace's time 0) to the last
// job's end, each job's time from its submission to its end, executor
// time as the session's Stats grew over the replay (peak executors: the
// session's, since it started). Executor time counts from each
// executor's registration where the simulator counts from the
// container's grant (am/core's SessionStats).
func replaySummary(ran []replayed, before, after *wire.Stats) sim.Result {
	ms := func(s float64) float64 { return math.Round(s*1000) / 1000 } // as sim rounds its sums
	res := sim.Result{Policy: "replay", Jobs: len(ran),
		ExecutorSeconds:     ms(after.GetExecutorSeconds() - before.GetExecutorSeconds()),
		IdleExecutorSeconds: ms(after.GetIdleExecutorSeconds() - before.GetIdleExecutorSeconds()),
		PeakExecutors:       int(after.GetPeakExecutors()),
		ContainerRequests:   int(after.GetContainerRequests() - before.GetContainerRequests())}
	times := make([]float64, 0, len(ran))
	sum := 0.0
	for _, r := range ran {
		if r.failure != "" {
			res.FailedJobs++
		}
		res.Tasks += r.tasks
		res.MakespanS = max(res.MakespanS, r.ended.Seconds())
		t := (r.ended - r.submitted).Seconds()
		times = append(times, t)
		sum += t
	}
	if n := len(times); n > 0 {
		res.MeanJobS = sum / float64(n)
		sort.Float64s(times)
		res.P95JobS = times[min(n-1, (95*n+99)/100-1)] // the nearest rank, as sim takes it
	}
	return res
}
