package coretest

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/core/fakerm"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/executor/taskenv"
	"github.com/spindle-yarn/spindle/scheduler"
)

// Epoch is the harness's time zero.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Harness is a core and its clock, with a fake RM (fakerm) that keeps
// the asks the core sent, for containers that name their profile rather
// than their ask (ContainerFor).
type Harness struct {
	Core *core.Core
	Now  time.Time
	rm   fakerm.RM
}

// New starts a core at Epoch.
func New(cfg core.Config) (*Harness, error) {
	c, err := core.New(cfg)
	if err != nil {
		return nil, err
	}
	return &Harness{Core: c, Now: Epoch}, nil
}

// ContainerFor is the allocation request id an RM would give a container
// of profile p (fakerm.RM.Fill): its oldest outstanding request, taken;
// else its newest ask (a surplus container); else 0, no ask at all.
func (h *Harness) ContainerFor(p scheduler.ProfileID) int64 { return h.rm.Fill(p) }

// Register registers executor id, of cores, on host "h", failing t when
// the core refuses it.
func (h *Harness) Register(t testing.TB, id scheduler.ExecutorID, cores int) {
	t.Helper()
	if err := h.Core.Register(h.Now, core.Registration{Executor: id, Host: "h", Cores: cores}); err != nil {
		t.Fatal(err)
	}
}

// Submit submits a one-stage job of tasks tasks running argv, with d for
// what it leaves out, failing t when the core refuses it.
func (h *Harness) Submit(t testing.TB, name string, tasks int, d jobspec.Defaults, argv ...string) scheduler.JobID {
	t.Helper()
	job, err := jobspec.Short(name, tasks, argv, d)
	if err != nil {
		t.Fatal(err)
	}
	id, err := h.Core.Submit(h.Now, job, nil)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// Advance moves the clock.
func (h *Harness) Advance(d time.Duration) { h.Now = h.Now.Add(d) }

// Ready calls the core's Ready at the harness's time.
func (h *Harness) Ready() core.Ready {
	rd := h.Core.Ready(h.Now)
	if rd.Allocate != nil {
		h.rm.Update(h.Now, rd.Allocate.Asks)
	}
	return rd
}

// Format writes a batch as one line per action, in the batch's order,
// times relative to now: what the scenario scripts compare.
func Format(rd core.Ready, now time.Time) string {
	var b strings.Builder
	for _, p := range rd.PortRequests {
		fmt.Fprintf(&b, "pick-port %s gang=%d\n", p.Executor, p.Gang)
	}
	for _, l := range rd.Launches {
		fmt.Fprintf(&b, "launch %s s%d/%d#%d gpus=%v cpus=%d%s\n", l.Executor, l.Attempt.Task.Stage, l.Attempt.Task.Index, l.Attempt.Attempt, l.GPUs, l.CPUs, rendezvous(l.Env))
	}
	for _, k := range rd.Kills {
		fmt.Fprintf(&b, "kill %s s%d/%d#%d: %s\n", k.Executor, k.Attempt.Task.Stage, k.Attempt.Task.Index, k.Attempt.Attempt, k.Reason)
	}
	for _, d := range rd.Drains {
		fmt.Fprintf(&b, "drain %s grace=%v: %s\n", d.Executor, d.Grace, d.Reason)
	}
	for _, d := range rd.Disconnects {
		fmt.Fprintf(&b, "disconnect %s: %s\n", d.Executor, d.Reason)
	}
	for _, r := range rd.Removed {
		fmt.Fprintf(&b, "removed %s lost=%v task-fault=%v: %s\n", r.Executor, r.Lost, r.TaskFault, r.Reason)
	}
	for _, s := range rd.StartContainers {
		fmt.Fprintf(&b, "start %s on %s profile=%d gpus=%v\n", s.Container, s.Node, s.Profile.ID, s.GPUIndices)
	}
	for _, id := range rd.StopKept {
		fmt.Fprintf(&b, "stop-kept %s\n", id)
	}
	if a := rd.Allocate; a != nil {
		var asks []string
		for _, k := range a.Asks {
			asks = append(asks, fmt.Sprintf("#%d p%d:%d", k.ID, k.Profile.ID, k.Count))
		}
		fmt.Fprintf(&b, "allocate asks=[%s] release=%v exclude=%v include=%v progress=%.2f\n", strings.Join(asks, " "), a.Release, a.Exclude, a.Include, a.Progress)
	}
	formatJournalled(&b, rd, now)
	for _, f := range rd.Finished {
		fmt.Fprintf(&b, "finished %s succeeded=%v tasks=%d attempts=%d failures=%d retries=%d", f.Job, f.Succeeded, f.Tasks, f.Attempts, f.Failures, f.Retries)
		if f.Reason != "" {
			fmt.Fprintf(&b, ": %s", f.Reason)
		}
		b.WriteString("\n")
		for _, e := range f.Executors {
			if e.Lost != "" {
				fmt.Fprintf(&b, "  lost %s: %s\n", e.ID, e.Lost)
			}
		}
	}
	for _, n := range rd.Notices {
		level := "info"
		if n.Warning {
			level = "warn"
		}
		var fields []string
		for _, f := range [][2]string{{"executor", string(n.Executor)}, {"container", n.Container}, {"node", n.Node}, {"job", n.Job}, {"stage", n.Stage}} {
			if f[1] != "" {
				fields = append(fields, f[0]+"="+f[1])
			}
		}
		if len(fields) > 0 {
			level += " " + strings.Join(fields, " ")
		}
		fmt.Fprintf(&b, "%s: %s\n", level, n.Message)
	}
	if h := rd.Handover; h != nil {
		fmt.Fprintf(&b, "handover deadline=+%v: %s\n", h.Deadline.Sub(now), h.Reason)
	}
	if rd.HandedOver {
		b.WriteString("handed-over\n")
	}
	if u := rd.Unregister; u != nil {
		fmt.Fprintf(&b, "unregister succeeded=%v: %s\n", u.Succeeded, u.Diagnostics)
	}
	if !rd.Next.IsZero() {
		fmt.Fprintf(&b, "next +%v\n", rd.Next.Sub(now))
	}
	return b.String()
}

// FormatStatus writes a Status, executors sorted.
func FormatStatus(st core.Status) string {
	var b strings.Builder
	fmt.Fprintf(&b, "job %s: %d tasks, %d succeeded, %d running, %d pending, %d failed attempts\n", st.Job, st.Tasks, st.Succeeded, st.Running, st.Pending, st.FailedAttempts)
	for _, w := range st.Waiting {
		fmt.Fprintf(&b, "waiting %s %d: %s\n", w.Stage, w.Pending, w.Why)
	}
	ex := append([]core.ExecutorStatus(nil), st.Executors...)
	sort.Slice(ex, func(i, k int) bool { return ex[i].ID < ex[k].ID })
	for _, e := range ex {
		fmt.Fprintf(&b, "executor %s on %s: %d running\n", e.ID, e.Host, e.Running)
	}
	for _, p := range st.Pools {
		fmt.Fprintf(&b, "pool %s %s weight=%d minshare=%d: %d running, %d pending, %d jobs\n", p.Name, p.Mode, p.Weight, p.MinShare, p.Running, p.Pending, p.Jobs)
	}
	for _, j := range st.Jobs {
		fmt.Fprintf(&b, "job %d %s in %s %s: %d/%d, %d running\n", j.ID, j.Name, j.Pool, j.State, j.Succeeded, j.Tasks, j.Running)
	}
	return b.String()
}

// ParseAttempt reads "s<stage>/<index>#<attempt>".
func ParseAttempt(s string) (scheduler.AttemptID, error) {
	var a scheduler.AttemptID
	var stage int
	if _, err := fmt.Sscanf(s, "s%d/%d#%d", &stage, &a.Task.Index, &a.Attempt); err != nil {
		return a, fmt.Errorf("attempt %q: want s<stage>/<index>#<attempt>", s)
	}
	a.Task.Stage = scheduler.StageID(stage)
	return a, nil
}

// FormatJobs prints Jobs, a line each.
func FormatJobs(jobs []core.JobInfo) string {
	if len(jobs) == 0 {
		return "no jobs"
	}
	var b strings.Builder
	for _, j := range jobs {
		fmt.Fprintf(&b, "job %d %s pool=%s %s %d/%d running=%d failed=%d %v", j.ID, j.Name, j.Pool, j.State, j.Succeeded, j.Tasks, j.Running, j.FailedAttempts, j.Duration)
		if j.Reason != "" {
			fmt.Fprintf(&b, ": %s", j.Reason)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// rendezvous shows a gang task's rendezvous variables: " RANK=0 ...".
func rendezvous(env []core.EnvVar) string {
	var b strings.Builder
	for _, v := range env {
		if slices.Contains(taskenv.Rendezvous, v.Name) {
			fmt.Fprintf(&b, " %s=%s", v.Name, v.Value)
		}
	}
	return b.String()
}

// formatJournalled writes what a batch gives the journal to record.
func formatJournalled(b *strings.Builder, rd core.Ready, now time.Time) {
	for _, t := range rd.GangTasksDone {
		fmt.Fprintf(b, "done job=%d stage=%d task=%d\n", t.Job, t.StageIndex, t.Index)
	}
	for _, d := range rd.DrainsStarted {
		by := "never"
		if !d.ReleaseBy.IsZero() {
			by = "+" + d.ReleaseBy.Sub(now).String()
		}
		fmt.Fprintf(b, "journal-drain %s by=%s decommissioning=%v: %s\n", d.Executor, by, d.Decommissioning, d.Reason)
	}
	for _, id := range rd.Undrained {
		fmt.Fprintf(b, "journal-undrained %s\n", id)
	}
	for _, t := range rd.TaskFailures {
		fmt.Fprintf(b, "failed job=%d stage=%d task=%d\n", t.Job, t.StageIndex, t.Index)
	}
}
