package coretest

import (
	"fmt"
	"strings"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/internal/scenario"
	"github.com/spindle-yarn/spindle/scheduler"
)

// resume reads "resume job=J stage=S name=j tasks=N gpus=G mem=M
// attempts=A profile=P shape=C,M,G done=0/1,0/3 failed=0/2:1,0/4:2":
// job J, its first stage S (of profile P as journalled, of shape C
// cores, M MiB, G GPUs where the journal has it; else fitted), with the
// tasks done (stage index/task index) and the counted failures others
// had (stage index/task index:count).
func (s *script) resume(a *scenario.Args) (string, error) {
	h := s.h
	j := core.ResumedJob{ID: scheduler.JobID(a.Int("job", 0)), FirstStage: scheduler.StageID(a.Int("stage", 0))}
	name, tasks, mem := a.String("name", ""), a.Int("tasks", 1), a.Int64("mem", 0)
	if a.Has("profile") { // the journal's: else Submit fits them
		j.StageProfiles = []scheduler.ProfileID{scheduler.ProfileID(a.Int("profile", 0))}
	}
	if a.Has("shape") { // the journal's shape of that profile: cores,mem,gpus
		var p scheduler.Profile
		if _, err := fmt.Sscanf(a.String("shape", ""), "%d,%d,%d", &p.Cores, &p.MemoryMB, &p.GPUs); err != nil {
			a.Fail("shape %q: want cores,mem,gpus", a.String("shape", ""))
		}
		j.StageShapes = []scheduler.Profile{p}
	}
	d := jobspec.Defaults{CPUs: a.Int("cpus", 1), GPUs: a.Float("gpus", 0), MaxAttempts: a.Int("attempts", 4)}
	for _, t := range a.List("done") {
		var r core.TaskRef
		if _, err := fmt.Sscanf(t, "%d/%d", &r.StageIndex, &r.Index); err != nil {
			a.Fail("done %q: want stage index/task index", t)
		}
		j.Done = append(j.Done, r)
	}
	for _, t := range a.List("failed") {
		var f core.TaskFailures
		if _, err := fmt.Sscanf(t, "%d/%d:%d", &f.StageIndex, &f.Index, &f.Count); err != nil {
			a.Fail("failed %q: want stage index/task index:count", t)
		}
		j.Failures = append(j.Failures, f)
	}
	if err := a.Err(); err != nil {
		return "", err
	}
	spec, err := jobspec.Short(name, tasks, []string{"true"}, d)
	if err != nil {
		return "", err
	}
	spec.Stages[0].MemoryMB = mem
	j.Spec = spec
	if err := h.Core.Resume(h.Now, j); err != nil {
		return refused(err)
	}
	return fmt.Sprintf("job %d stages %v", j.ID, h.Core.JobStages(j.ID)), nil
}

// kept reads "kept wait=D stop=D" and its lines "container ID node=N name=M
// profile=P gpus=0,1 [unjournalled] [drained=decommissioning|preempted
// by=D]": a drained one's executor was draining, its container to go D
// from now (never, without by).
func (s *script) kept(a *scenario.Args, input []scenario.Input) error {
	wait, stop := a.Duration("wait", 0), a.Duration("stop", 0)
	if err := a.Err(); err != nil {
		return err
	}
	var kept []core.KeptContainer
	for _, in := range input {
		c := scenario.ParseArgs(in.Text, rest...)
		if c.Cmd != "container" {
			return scenario.AtLine(in.Line, fmt.Errorf("%q: want container", strings.TrimSpace(in.Text)))
		}
		unjournalled := c.Flag("unjournalled")
		k := core.KeptContainer{ID: c.Words(1)[0], Node: c.String("node", ""), Profile: scheduler.ProfileID(c.Int("profile", 0)),
			GPUIndices: c.List("gpus"), Journalled: !unjournalled}
		k.NodeName = c.String("name", k.Node)
		k.Drain = s.keptDrain(c)
		if err := c.Err(); err != nil {
			return scenario.AtLine(in.Line, err)
		}
		kept = append(kept, k)
	}
	s.h.Core.Kept(s.h.Now, kept, wait, stop)
	return nil
}

// keptDrain reads a kept container's drained=WHY by=D.
func (s *script) keptDrain(c *scenario.Args) *core.KeptDrain {
	var d core.KeptDrain
	switch why := c.String("drained", ""); why {
	case "":
		return nil
	case "decommissioning":
		d.Reason, d.Decommissioning = "its node is being decommissioned", true
	case "preempted":
		d.Reason = "preempted by YARN"
	default:
		c.Fail("drained=%q: want decommissioning or preempted", why)
	}
	if c.Has("by") {
		d.ReleaseBy = s.h.Now.Add(c.Duration("by", 0))
	}
	return &d
}

// running reads register's "running=s0/2#0@0+1,s0/3#0": attempts a
// rejoining executor still runs, each with its GPU addresses after @.
func running(a *scenario.Args) []core.RunningAttempt {
	var out []core.RunningAttempt
	for _, r := range a.List("running") {
		at, gpus, _ := strings.Cut(r, "@")
		id, err := ParseAttempt(at)
		if err != nil {
			a.Fail("running: %v", err)
		}
		ra := core.RunningAttempt{Attempt: id}
		if gpus != "" {
			ra.GPUs = strings.Split(gpus, "+")
		}
		out = append(out, ra)
	}
	return out
}
