package deploy

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// sessionJobKeys are the settings a job submitted to a session takes from
// its client: its stages' defaults, its name and its pool. Every other key
// either shapes the session (its executors, their count and allocation,
// its scheduler and pools, its queue and AM: fixed at `session start`) or
// is the client's own (sessionClientKeys).
var sessionJobKeys = map[string]bool{
	"spindle.app.name": true, "spindle.scheduler.pool": true,
	"spindle.task.cpus": true, "spindle.task.resource.gpu.amount": true, "spindle.task.maxFailures": true,
}

// sessionClientKeys are how the client itself works: its log, and how it
// logs in to find a YARN session on a Kerberos cluster.
var sessionClientKeys = map[string]bool{
	"spindle.log.level": true, "spindle.kerberos.principal": true, "spindle.kerberos.keytab": true,
}

// sessionShapingFlags are submit's flags, other than those of keys, that a
// submit to a session cannot honour: the session's executors and working
// directories are its own, and a session's job is followed, or detached.
var sessionShapingFlags = []struct{ flag, why string }{
	{"files", "a session's executors were started with the files of its `session start --files`; a job's files cannot reach them (ship them with the session, or put them where the tasks can read them)"},
	{"wait", "a job submitted to a session is followed to its end; --detach leaves it running"},
	{"no-wait", "a job submitted to a session is followed to its end; --detach leaves it running"},
}

// refuseSessionShaping refuses, each with its flag or --conf setting
// named, what a submit to a session would otherwise silently ignore: the
// settings that shape the session, which are fixed at `session start`.
// Settings from a properties file are the environment's defaults rather
// than this job's: those that shape a session are not refused, and are
// listed once (on w) when the file was given with --properties-file.
func refuseSessionShaping(c *cli.Context, conf *config.Config, w io.Writer) error {
	var errs []error
	for _, f := range sessionShapingFlags {
		if c.IsSet(f.flag) {
			errs = append(errs, fmt.Errorf("--%s with --session: %s", f.flag, f.why))
		}
	}
	var fromFile []string
	for _, s := range conf.Settings() {
		if !conf.IsSet(s.Key) || sessionJobKeys[s.Key] || sessionClientKeys[s.Key] {
			continue
		}
		if !s.Source.CommandLine() {
			fromFile = append(fromFile, s.Key)
			continue
		}
		errs = append(errs, fmt.Errorf("%s: a session's settings are fixed at `spindle session start`; a job submitted to one takes only "+
			"--name, --pool, --task-cpus, --task-gpus and spindle.task.maxFailures", s.Where()))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if file := c.String("properties-file"); file != "" && len(fromFile) > 0 {
		sort.Strings(fromFile)
		fmt.Fprintf(w, "spindle: %s: not this job's, but the session's, fixed at its start: %s\n", file, strings.Join(fromFile, ", "))
	}
	return nil
}
