package deploy

import (
	"fmt"
	"io"
	"time"

	"github.com/spindle-yarn/spindle/am/history"
)

// writeHistory prints an application's history for people: the
// application, each job with its stages, and its executors.
func writeHistory(w io.Writer, s *history.Store) {
	app := s.App()
	end := time.Now()
	if app.Ended != nil {
		end = *app.Ended
	}
	name := app.ID
	if app.Name != "" {
		name += " " + app.Name
	}
	fmt.Fprintf(w, "%s (%s): %s after %s", name, app.Master, app.State, end.Sub(app.Started).Round(time.Millisecond))
	if app.Diagnostics != "" {
		fmt.Fprintf(w, ": %s", app.Diagnostics)
	}
	fmt.Fprintln(w)
	jobs := s.Jobs(end)
	fmt.Fprintf(w, "jobs %d: %d succeeded, %d failed, %d cancelled, %d running\n", len(jobs), app.Jobs[history.JobSucceeded],
		app.Jobs[history.JobFailed], app.Jobs[history.JobCancelled], app.Jobs[history.JobRunning])
	for i := len(jobs) - 1; i >= 0; i-- {
		j, _ := s.Job(end, jobs[i].ID)
		fmt.Fprintf(w, "  job %d %s in %s: %s, %d/%d tasks, %d failed attempts, %s", j.ID, j.Name, j.Pool, j.State, j.Succeeded, j.Tasks,
			j.FailedAttempts, seconds(j.DurationS))
		if j.Reason != "" {
			fmt.Fprintf(w, ": %s", j.Reason)
		}
		fmt.Fprintln(w)
		for _, st := range j.Stages {
			fmt.Fprintf(w, "    stage %d %s: %s, %d/%d tasks, %d failed attempts, %d killed, %s\n", st.ID, st.Name, st.State, st.Succeeded, st.Tasks,
				st.FailedAttempts, st.KilledAttempts, seconds(st.DurationS))
			if g, ok := s.Gang(end, st.ID); ok {
				writeGang(w, g)
			}
		}
	}
	execs := s.Executors(end)
	fmt.Fprintf(w, "executors %d\n", len(execs))
	for _, x := range execs {
		fmt.Fprintf(w, "  %s on %s: %d succeeded, %d failed, %d killed; %s", x.ID, x.Host, x.Succeeded, x.Failed, x.Killed, x.State)
		if x.Reason != "" {
			fmt.Fprintf(w, ": %s", x.Reason)
		}
		fmt.Fprintln(w)
	}
}

// writeGang says a gang stage's runs and why it restarted:
// "      gang: 2 runs at vm:29500, 1 restart: rank 2 exited 1".
func writeGang(w io.Writer, g history.GangView) {
	fmt.Fprintf(w, "      gang: %s", count(g.Runs, "run"))
	if g.Master != "" {
		fmt.Fprintf(w, " at %s", g.Master)
	}
	fmt.Fprintf(w, ", %s", count(g.RestartCount, "restart"))
	for i, r := range g.Restarts {
		sep := "; "
		if i == 0 {
			sep = ": "
		}
		fmt.Fprintf(w, "%s%s", sep, r.Reason)
	}
	fmt.Fprintln(w)
}

// count says "1 run", "2 runs".
func count(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

func seconds(s float64) time.Duration {
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond)
}
