package scheduler

import (
	"fmt"
	"strings"

	"github.com/spindle-yarn/spindle/internal/scenario"
)

// query runs the commands that print what the scheduler reports.
func (g *golden) query(a *scenario.Args) (string, error) {
	var out string
	switch a.Cmd {
	case "why":
		out = g.why(JobID(a.Int("job", 0)))
	case "demand":
		out = g.demand(ProfileID(a.Int("profile", 0)))
	case "executors":
		out = g.executors()
	case "wakeup":
		out = "none"
		if w, ok := g.s.Wakeup(g.now); ok {
			out = "at +" + w.Sub(t0).String()
		}
	case "progress":
		out = g.progress(a)
	}
	if out == "" {
		out = "none"
	}
	return out, a.Err()
}

func (g *golden) why(id JobID) string {
	var out []string
	for _, r := range g.s.WhyPending(g.now, id) {
		out = append(out, fmt.Sprintf("stage %d %q: %d pending: %s: %s", r.Stage, r.Name, r.Pending, reasonName[r.Reason], r.Message))
	}
	return strings.Join(out, "\n")
}

func (g *golden) demand(p ProfileID) string {
	var out []string
	for _, d := range g.s.Demand(g.now, p) {
		line := fmt.Sprintf("stage %d: running %d pending %d per-executor %d excluded-only %v", d.Stage, d.Running, d.Pending, d.TasksPerExecutor, d.ExcludedOnly)
		if d.Speculative > 0 {
			line += fmt.Sprintf(" speculative %d", d.Speculative)
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

func (g *golden) executors() string {
	var out []string
	for _, e := range g.s.Executors() {
		idle := "busy"
		if !e.IdleSince.IsZero() {
			idle = "idle since +" + e.IdleSince.Sub(t0).String()
		}
		out = append(out, fmt.Sprintf("%s %s profile %d: running %d, %d cores free, %s", e.ID, e.Host, e.Profile, e.Running, e.FreeCores, idle))
	}
	return strings.Join(out, "\n")
}

// progress prints "progress pool=NAME" or "progress job=ID".
func (g *golden) progress(a *scenario.Args) string {
	var p Progress
	var ok bool
	if a.Has("pool") {
		p, ok = g.s.PoolProgress(a.String("pool", ""))
	} else {
		p, ok = g.s.JobProgress(JobID(a.Int("job", 0)))
	}
	if !ok {
		return "unknown"
	}
	return fmt.Sprintf("tasks %d: succeeded %d running %d pending %d; failed attempts %d", p.Tasks, p.Succeeded, p.Running, p.Pending, p.FailedAttempts)
}

var reasonName = map[Reason]string{
	ReasonNone:                  "none",
	ReasonWaitingForParents:     "parents",
	ReasonNoExecutors:           "no executors",
	ReasonInsufficientResources: "insufficient resources",
	ReasonExcludedHosts:         "excluded hosts",
	ReasonWaitingForLocality:    "locality",
	ReasonRetryBackoff:          "retry backoff",
	ReasonGang:                  "gang",
}

func goldenReady(rd Ready) string {
	var out []string
	for _, l := range rd.Launches {
		copyOf := ""
		if l.Speculative {
			copyOf = " speculative"
		}
		line := fmt.Sprintf("launch%s s%d/%d#%d job %d on %s (%s) gpus [%s]", copyOf, l.Attempt.Task.Stage, l.Attempt.Task.Index, l.Attempt.Attempt, l.Job, l.Executor, l.Host, strings.Join(l.Addresses, " "))
		if l.Locality != LocalityUnset {
			line += " " + l.Locality.String()
		}
		out = append(out, line)
	}
	for _, k := range rd.Kills {
		out = append(out, fmt.Sprintf("kill s%d/%d#%d on %s: %s", k.Attempt.Task.Stage, k.Attempt.Task.Index, k.Attempt.Attempt, k.Executor, k.Reason))
	}
	for _, to := range rd.GangTimeouts {
		out = append(out, fmt.Sprintf("gang timeout s%d try %d: %s", to.Stage, to.Try, to.Message))
	}
	for _, id := range rd.GangTasksDone {
		out = append(out, fmt.Sprintf("gang task done s%d/%d", id.Stage, id.Index))
	}
	for _, id := range rd.Failures {
		out = append(out, fmt.Sprintf("failure counted s%d/%d", id.Stage, id.Index))
	}
	for _, st := range rd.StagesSucceeded {
		out = append(out, fmt.Sprintf("stage s%d succeeded", st))
	}
	for _, f := range rd.Finished {
		if f.Succeeded {
			out = append(out, fmt.Sprintf("job %d %q succeeded", f.Job, f.Name))
		} else {
			out = append(out, fmt.Sprintf("job %d %q failed: %s", f.Job, f.Name, f.Reason))
		}
	}
	if len(out) == 0 {
		return "nothing"
	}
	return strings.Join(out, "\n")
}
