package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/am/sim"
	"github.com/spindle-yarn/spindle/deploy/settings"
)

func simCommand() *cli.Command {
	return &cli.Command{
		Name:      "sim",
		Usage:     "replay a workload trace against a configuration, on a simulated clock and cluster",
		UsageText: "spindle sim --trace FILE.csv [--properties-file F] [--conf k=v]... [--alloc-delay 2s] [--startup-delay 5s] [--capacity N] [--time-scale X] [--json] [--plot FILE.svg]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "trace", Required: true, Usage: "trace CSV: submit_s,job,stage,tasks,task_s,cpus,gpus[,pool][,after]"},
			&cli.StringFlag{Name: "properties-file", Usage: "spark-defaults.conf-style settings (default $SPINDLE_CONF_DIR/spindle-defaults.conf)"},
			&cli.StringSliceFlag{Name: "conf", Usage: "KEY=VALUE, repeatable; wins over the properties file"},
			&cli.DurationFlag{Name: "alloc-delay", Value: 2 * time.Second, Usage: "from container request to container"},
			&cli.DurationFlag{Name: "startup-delay", Value: 5 * time.Second, Usage: "from container to registered executor"},
			&cli.IntFlag{Name: "capacity", Usage: "containers the cluster grants at once (0: no limit)"},
			&cli.Float64Flag{Name: "time-scale", Value: 1, Usage: "run the trace X times faster: submit_s and task_s divided by X (as spindle replay --time-scale)"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
			&cli.StringFlag{Name: "plot", Usage: "draw executors held, executors busy and tasks waiting over time to this SVG file, under the other dynamic-allocation policy too"},
		},
		Action: runSim,
	}
}

func runSim(c *cli.Context) error {
	if c.Args().Present() {
		return fmt.Errorf("sim takes no arguments, got %q", c.Args().Slice())
	}
	if c.Int("capacity") < 0 {
		return fmt.Errorf("--capacity %d: cannot be negative", c.Int("capacity"))
	}
	conf, err := loadConfig(c.String("properties-file"), c.StringSlice("conf"))
	if err != nil {
		return err
	}
	opts := sim.Options{AllocDelay: c.Duration("alloc-delay"), StartupDelay: c.Duration("startup-delay"), Capacity: c.Int("capacity")}
	for _, flag := range []string{"alloc-delay", "startup-delay"} {
		if d := c.Duration(flag); d < 0 || d > sim.MaxDuration {
			return fmt.Errorf("--%s %v: want 0 to %v", flag, d, sim.MaxDuration)
		}
	}
	// The AM's own configuration from the same settings: its pace, fine
	// mode and dynamic allocation included.
	if opts.Core, _, err = settings.Core(conf, settings.CoreFor{Session: true, Containers: true}); err != nil {
		return err
	}
	if n := opts.Core.Containers.Initial[opts.Core.Profiles[0].ID]; opts.Core.Allocation == nil && (n < 0 || n > sim.MaxExecutors) {
		return fmt.Errorf("spindle.executor.instances %d: the simulator runs 0 to %d executors", n, sim.MaxExecutors)
	}

	path := c.String("trace")
	jobs, err := readTrace(path, c.Float64("time-scale"))
	if err != nil {
		return err
	}
	runs := []sim.Options{opts}
	var plot *plotFile
	if c.IsSet("plot") {
		if plot, err = openPlot(c.String("plot")); err != nil {
			return err
		}
		defer plot.discard()
		runs[0].Timeline = true
		if other, ok := comparedPolicy(runs[0]); ok {
			runs = append(runs, other)
		}
	}
	results, err := simulate(c.Context, jobs, runs)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if plot != nil {
		if err := plot.write(simChart(path, results)); err != nil {
			return err
		}
	}
	res := results[0]
	out := c.App.Writer
	if c.Bool("json") {
		b, err := json.Marshal(res)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "%s\n", b)
		return err
	}
	printSimResult(out, "policy                 "+res.Policy, res)
	if plot != nil {
		fmt.Fprintf(out, "plot                   %s\n", plot.path)
	}
	return nil
}

// simulate runs the trace under each of runs at once, and returns their
// results in order. The simulations watch no context: an interrupt ends
// the command without waiting for them, and the process with it.
func simulate(ctx context.Context, jobs []sim.TraceJob, runs []sim.Options) ([]sim.Result, error) {
	type outcome struct {
		i   int
		res sim.Result
		err error
	}
	done := make(chan outcome, len(runs))
	for i, opts := range runs {
		go func() {
			res, err := sim.Run(jobs, opts)
			done <- outcome{i, res, err}
		}()
	}
	results := make([]sim.Result, len(runs))
	for range runs {
		select {
		case o := <-done:
			if o.err != nil {
				return nil, o.err
			}
			results[o.i] = o.res
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}
	return results, nil
}

// printSimResult writes a simulated run, or a replayed one, under its
// first line.
func printSimResult(out io.Writer, first string, res sim.Result) {
	fmt.Fprintln(out, first)
	fmt.Fprintf(out, "makespan               %.1f s\n", res.MakespanS)
	fmt.Fprintf(out, "executor seconds       %.0f\n", res.ExecutorSeconds)
	fmt.Fprintf(out, "idle executor seconds  %.0f\n", res.IdleExecutorSeconds)
	fmt.Fprintf(out, "peak executors         %d\n", res.PeakExecutors)
	fmt.Fprintf(out, "container requests     %d\n", res.ContainerRequests)
	fmt.Fprintf(out, "jobs                   %d (%d failed), mean %.1f s, p95 %.1f s\n", res.Jobs, res.FailedJobs, res.MeanJobS, res.P95JobS)
	fmt.Fprintf(out, "tasks                  %d\n", res.Tasks)
	printPools(out, res)
}

// printPools writes what each pool got, under the fairness that shared
// them: its share while it had tasks waiting, and what its tasks held.
func printPools(out io.Writer, res sim.Result) {
	if len(res.Pools) == 0 {
		return
	}
	if res.Fairness != "" {
		fmt.Fprintf(out, "fairness               %s\n", res.Fairness)
	}
	fmt.Fprintf(out, "%-22s %6s %12s %12s %14s %12s %10s\n", "pool", "tasks", "cpu seconds", "gpu seconds", "mean dominant", "backlogged", "mean job")
	for _, p := range res.Pools {
		fmt.Fprintf(out, "%-22s %6d %12.0f %12.0f %14.3f %10.1f s %8.1f s\n", p.Name, p.Tasks, p.CPUSeconds, p.GPUSeconds, p.MeanDominantShare, p.BackloggedS, p.MeanJobS)
	}
}

// readTrace reads the trace at path, run scale times faster (--time-scale,
// as spindle sim and spindle replay take it).
func readTrace(path string, scale float64) ([]sim.TraceJob, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	jobs, err := sim.ParseTrace(f, path)
	if err != nil {
		return nil, err
	}
	if jobs, err = sim.ScaleTrace(jobs, scale); err != nil {
		return nil, fmt.Errorf("--time-scale: %w", err)
	}
	return jobs, nil
}
