package deploy

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/localmode"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/summary"
	"github.com/spindle-yarn/spindle/internal/latest"
)

// flagKeys are the submit flags that stand for configuration keys; a flag
// given wins over the same key in --conf and the properties file. usage,
// when set, says more than "sets KEY".
var flagKeys = []struct{ flag, key, usage string }{
	{"master", "spindle.master", "local, local[N] (N executors), local[*] (all cores) or yarn; sets spindle.master"},
	{"name", "spindle.app.name", "job name, over the job spec's (the short form's default: the command's); sets spindle.app.name"},
	{"pool", "spindle.scheduler.pool", "scheduler pool, over the job spec's; sets spindle.scheduler.pool"},
	{"queue", "spindle.yarn.queue", ""},
	{"num-executors", "spindle.executor.instances", "yarn: executors to run (local[N] sets local mode's); sets spindle.executor.instances"},
	{"executor-cores", "spindle.executor.cores", ""},
	{"executor-memory", "spindle.executor.memory", ""},
	{"executor-gpus", "spindle.executor.resource.gpu.amount", ""},
	{"task-cpus", "spindle.task.cpus", ""},
	{"task-gpus", "spindle.task.resource.gpu.amount", ""},
}

func submitCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "properties-file", Usage: "spark-defaults.conf-style settings (default $SPINDLE_CONF_DIR/spindle-defaults.conf)"},
		&cli.StringSliceFlag{Name: "conf", Usage: "KEY=VALUE, repeatable; wins over the properties file"},
		&cli.IntFlag{Name: "tasks", Usage: "short form: run COMMAND as this many tasks"},
		&cli.StringFlag{Name: "files", Usage: "F1,F2: shipped to every executor's working directory"},
		&cli.BoolFlag{Name: "wait", Value: true, Usage: "yarn: follow the application until it ends (the default)"},
		&cli.BoolFlag{Name: "no-wait", Usage: "yarn: return once the application is submitted"},
		&cli.StringFlag{Name: "session", Usage: "ID: run the job in this session (spindle session start), following it to its end"},
		&cli.BoolFlag{Name: "detach", Usage: "with --session: return once the session has the job, leaving it running"},
	}
	for _, fk := range flagKeys {
		usage := fk.usage
		if usage == "" {
			usage = "sets " + fk.key
		}
		flags = append(flags, &cli.StringFlag{Name: fk.flag, Usage: usage})
	}
	return &cli.Command{
		Name:      "submit",
		Usage:     "run a job: locally (--master local[N]) or on YARN (--master yarn)",
		UsageText: "spindle submit [flags] JOB.yaml            (flags before the spec)\nspindle submit [flags] --tasks N -- COMMAND [ARGS...]\nspindle submit --session ID [--pool POOL] [--detach] JOB.yaml",
		Flags:     flags,
		Action:    runSubmit,
	}
}

// shippedFiles checks --files F1,F2: each must be a readable regular file,
// and no two may share a name in the working directory they land in.
func shippedFiles(list string) ([]string, error) {
	if list == "" {
		return nil, nil
	}
	var files []string
	names := map[string]string{}
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		st, err := os.Stat(f)
		if err != nil {
			return nil, fmt.Errorf("--files: %w", err)
		}
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("--files: %s is not a regular file", f)
		}
		base := filepath.Base(f)
		if prev, dup := names[base]; dup {
			return nil, fmt.Errorf("--files: %s and %s would both be %s in the working directory", prev, f, base)
		}
		names[base] = f
		files = append(files, f)
	}
	return files, nil
}

func runSubmit(c *cli.Context) error {
	var flags []config.Flag
	for _, fk := range flagKeys {
		if c.IsSet(fk.flag) {
			flags = append(flags, config.Flag{Name: "--" + fk.flag, Key: fk.key, Value: c.String(fk.flag)})
		}
	}
	conf, err := loadConfig(c.String("properties-file"), c.StringSlice("conf"), flags...)
	if err != nil {
		return err
	}
	// Diagnostics (staging, submission, the executors' processes) are
	// the log's; the terminal has the job's progress.
	log, err := logger(c, conf, true)
	if err != nil {
		return err
	}
	if keys := conf.IgnoredSparkKeys(); len(keys) > 0 {
		log.WithField("keys", strings.Join(keys, ",")).Warn("ignoring Spark settings Spindle does not use")
	}
	job, err := loadJob(c, conf)
	if err != nil {
		return err
	}
	if c.IsSet("session") {
		return runSessionSubmit(c, conf, job, c.String("session"))
	}
	if c.Bool("detach") {
		return errors.New("--detach goes with --session")
	}
	master, err := conf.Master()
	if err != nil {
		return err
	}
	if err := checkStagesFit(conf, job.Job, master); err != nil {
		return err
	}
	if master.Yarn {
		return runYarn(c, conf, log, job)
	}
	if err := refuseYarnOnlySettings(conf); err != nil {
		return err
	}
	cores, err := conf.Int("spindle.executor.cores")
	if err != nil {
		return err
	}
	return runLocal(c, conf, log, job.Job, master.LocalExecutors(runtime.NumCPU(), cores))
}

// loadedJob is the job of a submit's command line, and its spec as
// written when it came from a file, read once (Text; nil for the short
// form).
type loadedJob struct {
	*jobspec.Job
	Text []byte
}

func loadJob(c *cli.Context, conf *config.Config) (loadedJob, error) {
	d, err := settings.JobDefaults(conf)
	if err != nil {
		return loadedJob{}, err
	}
	args := c.Args().Slice()
	var lj loadedJob
	switch {
	case c.IsSet("tasks") && len(args) == 0:
		return lj, errors.New("--tasks N needs a command after --")
	case c.IsSet("tasks"):
		lj.Job, err = jobspec.Short("", c.Int("tasks"), args, d)
	case len(args) == 0:
		return lj, errors.New("want a job spec file, or --tasks N -- COMMAND")
	default:
		if err := flagsAfterSpec(c, args); err != nil {
			return lj, err
		}
		if len(args) != 1 {
			return lj, fmt.Errorf("want one job spec file, or --tasks N -- COMMAND; got %d arguments", len(args))
		}
		if lj.Text, err = jobspec.Read(args[0]); err == nil {
			lj.Job, err = jobspec.Parse(lj.Text, args[0], d)
		}
	}
	if err != nil {
		return lj, err
	}
	return lj, settings.OverrideJob(lj.Job, conf)
}

// runLocal runs job on n executor processes on this machine.
func runLocal(c *cli.Context, conf *config.Config, log *logrus.Logger, job *jobspec.Job, n int) error {
	l, appDir, err := localmode.App(conf, log, localmode.Options{AppID: localmode.NewAppID(), Executors: n, Verbose: c.Bool("verbose")})
	if err != nil {
		return err
	}
	defer appDir.Close()
	if u := localmode.UIURL(l); u != "" {
		fmt.Fprintf(c.App.Writer, "UI=%s\n", u)
	}
	if notice := settings.UndefinedPoolNotice(conf, job.Pool, l.Core.Scheduler.Pools); notice != "" {
		fmt.Fprintln(c.App.ErrWriter, "spindle: "+notice)
	}
	files, err := shippedFiles(c.String("files"))
	if err != nil {
		return err
	}
	l.Launcher.Files = files
	l.Job = job
	// The loop hands the progress on, never waiting on the terminal: a
	// terminal that is slow to take a line gets the newest when it can.
	progress := newProgressPrinter(c.App.Writer)
	lines := latest.Start(progress.update)
	l.Progress = lines.Put
	sum, err := localmode.Run(c.Context, l)
	lines.Close() // the newest line, before the bar's line ends
	progress.finish()
	if err != nil {
		printReopen(c.App.Writer, l)
		return err
	}
	logDir := appDir.Path
	summary.Print(c.App.Writer, sum, logDir)
	if !sum.Succeeded {
		printReopen(c.App.Writer, l)
		return fmt.Errorf("job %s failed: %s", sum.Job, sum.Reason)
	}
	return nil
}

// printReopen says how to see a local job's UI again once it has ended
// (its UI ends with it): from its event log, with its task output while
// the files are kept.
func printReopen(w io.Writer, l localmode.Program) {
	if l.History.Log != nil {
		fmt.Fprintf(w, "  its UI, now that it has ended: spindle history %s\n", l.Core.AppID)
	}
}
