package coretest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/internal/scenario"
	"github.com/spindle-yarn/spindle/scheduler"
)

// Run runs every script in dir (*.txt) as a subtest; with update it
// rewrites their expected output instead of comparing.
func Run(t *testing.T, dir string, update bool) {
	t.Helper()
	scenario.TestDir(t, dir, update, func() scenario.Step { return new(script).step })
}

// RunFile runs the script at path and returns what differs from its
// expected output; a block that fails ends it with an error naming the
// file and line.
func RunFile(path string) ([]scenario.Mismatch, error) {
	res, err := scenario.RunFile(path, new(script).step)
	return res.Mismatches, err
}

// rest are the keys that take the rest of their line.
var rest = []string{"reason", "why", "diag"}

type script struct{ h *Harness }

func (s *script) step(b scenario.Block) (string, error) {
	a := scenario.ParseArgs(b.Cmd, rest...)
	if a.Cmd == "config" {
		return "", s.config(a, b.Input)
	}
	if s.h == nil {
		return "", fmt.Errorf("no config yet")
	}
	switch a.Cmd {
	case "submit":
		return s.submit(a)
	case "resume":
		return s.resume(a)
	case "kept":
		return "", s.kept(a, b.Input)
	case "register", "status", "allocated", "cancel":
		return s.input(a, b.Input)
	case "jobs", "ready", "status-page":
		return s.print(a)
	}
	return "", s.event(a)
}

// event runs the commands that feed the core one call and print nothing.
func (s *script) event(a *scenario.Args) error {
	h := s.h
	var call func()
	switch a.Cmd {
	case "seen":
		id := scheduler.ExecutorID(a.String("id", ""))
		call = func() { h.Core.Seen(h.Now, id) }
	case "statuses":
		id := scheduler.ExecutorID(a.String("id", ""))
		call = func() { h.Core.Statuses(h.Now, id, nil) } // an empty batch

	case "ended":
		id, reason := scheduler.ExecutorID(a.String("id", "")), a.String("reason", "")
		call = func() { h.Core.ConnectionEnded(h.Now, id, reason) }
	case "rejected":
		call = h.Core.Rejected
	case "launch-failed":
		id, why := a.String("id", ""), a.String("why", "")
		call = func() { h.Core.LaunchFailed(h.Now, id, why) }
	case "kept-stopped":
		id := a.String("id", "")
		call = func() { h.Core.KeptStopped(h.Now, id) }
	case "resynced":
		call = func() { h.Core.Resynced(h.Now) }
	case "release-am":
		call = func() { h.Core.ReleaseAM(h.Now) }
	case "fail":
		reason := a.String("reason", "")
		call = func() { h.Core.Fail(h.Now, reason) }
	case "stop":
		reason := a.String("reason", "")
		call = func() { h.Core.Stop(h.Now, reason) }
	case "port":
		id, gang, port, failure := scheduler.ExecutorID(a.String("id", "")), a.Int64("gang", 0), a.Int("port", 0), a.String("why", "")
		call = func() { h.Core.PortPicked(h.Now, id, gang, port, failure) }
	case "advance":
		d := a.ParseDuration("advance", a.Words(1)[0])
		call = func() { h.Advance(d) }
	default:
		return fmt.Errorf("unknown command %q", a.Cmd)
	}
	if err := a.Err(); err != nil {
		return err
	}
	call()
	return nil
}

// print runs the commands that print what the core says.
func (s *script) print(a *scenario.Args) (string, error) {
	if err := a.Err(); err != nil {
		return "", err
	}
	h := s.h
	switch a.Cmd {
	case "jobs":
		return FormatJobs(h.Core.Jobs(h.Now)), nil
	case "ready":
		return Format(h.Ready(), h.Now), nil
	}
	return FormatStatus(h.Core.Status(h.Now)), nil
}

// refused shows an error of the core's API as output: scripts show what
// it refuses.
func refused(err error) (string, error) {
	if err != nil {
		return "refused: " + err.Error(), nil
	}
	return "", nil
}

// submit reads "submit name=j tasks=N cpus=C gpus=G mem=MiB pool=P
// attempts=A command=C profile=P gang".
func (s *script) submit(a *scenario.Args) (string, error) {
	h := s.h
	d := jobspec.Defaults{CPUs: a.Int("cpus", 1), GPUs: a.Float("gpus", 0), MaxAttempts: a.Int("attempts", 4), Pool: a.String("pool", "")}
	name, tasks, command := a.String("name", ""), a.Int("tasks", 1), []string{a.String("command", "true")}
	mem, hasMem := a.Int64("mem", 0), a.Has("mem")
	gang := a.Flag("gang")
	var stageProfiles []scheduler.ProfileID
	if a.Has("profile") {
		stageProfiles = []scheduler.ProfileID{scheduler.ProfileID(a.Int("profile", 0))}
	}
	if err := a.Err(); err != nil {
		return "", err
	}
	job, err := jobspec.Short(name, tasks, command, d)
	if err != nil {
		return "", err
	}
	if hasMem {
		job.Stages[0].MemoryMB = mem
	}
	job.Stages[0].Gang = gang
	id, err := h.Core.Submit(h.Now, job, stageProfiles)
	if err != nil {
		return refused(err)
	}
	return fmt.Sprintf("job %d stages %v", id, h.Core.JobStages(id)), nil
}

// input runs the commands whose refusals are output, and allocated,
// which reads its input lines.
func (s *script) input(a *scenario.Args, input []scenario.Input) (string, error) {
	h := s.h
	switch a.Cmd {
	case "register":
		r := core.Registration{Executor: scheduler.ExecutorID(a.String("id", "")), Host: a.String("host", ""), Cores: a.Int("cores", 1), GPUs: a.List("gpus"),
			Running: running(a)}
		if err := a.Err(); err != nil {
			return "", err
		}
		return refused(h.Core.Register(h.Now, r))
	case "status":
		st, id := taskStatus(a)
		if err := a.Err(); err != nil {
			return "", err
		}
		h.Core.Statuses(h.Now, id, []core.TaskStatus{st})
	case "allocated":
		nodes := a.Int("nodes", 0)
		if err := a.Err(); err != nil {
			return "", err
		}
		res, err := h.allocation(input)
		if err != nil {
			return "", err
		}
		res.ClusterNodes = nodes
		h.Core.Allocated(h.Now, res)
	case "cancel":
		id, reason := scheduler.JobID(a.Int("job", 0)), a.String("reason", "")
		if err := a.Err(); err != nil {
			return "", err
		}
		return refused(h.Core.Cancel(h.Now, id, reason))
	}
	return "", nil
}

// taskStatus reads "status id=c1 s0/0#0 ok|fail|killed|started exit=N
// reason=...".
func taskStatus(a *scenario.Args) (core.TaskStatus, scheduler.ExecutorID) {
	w := a.Words(2)
	at, err := ParseAttempt(w[0])
	if err != nil && a.Err() == nil {
		a.Fail("%v", err)
	}
	st := core.TaskStatus{Attempt: at, Reason: a.String("reason", ""), ExitCode: a.Int("exit", 0)}
	switch w[1] {
	case "ok":
		st.State = core.TaskSucceeded
	case "fail":
		st.State = core.TaskFailed
	case "killed":
		st.State = core.TaskKilled
	case "started":
		st.State = core.TaskStarted
	default:
		a.Fail("state %q: want ok, fail, killed or started", w[1])
	}
	return st, scheduler.ExecutorID(a.String("id", ""))
}

// allocation reads an allocate's answer; a container names the ask it
// fills (ask=ID), or its profile (profile=P, ContainerFor); a node is one
// of updated_nodes; preempted names a container of the PreemptionMessage.
func (h *Harness) allocation(input []scenario.Input) (core.AllocateResult, error) {
	var res core.AllocateResult
	for _, in := range input {
		a := scenario.ParseArgs(in.Text, rest...)
		id := a.Words(1)[0]
		switch a.Cmd {
		case "container":
			c := core.Container{ID: id, Node: a.String("node", ""), Ask: a.Int64("ask", 0)}
			c.NodeName = a.String("name", c.Node)
			if !a.Has("ask") {
				c.Ask = h.ContainerFor(scheduler.ProfileID(a.Int("profile", 0)))
			}
			res.Allocated = append(res.Allocated, c)
		case "completed":
			res.Completed = append(res.Completed, core.Completion{Container: id, ExitStatus: int32(a.Int("status", 0)), Diagnostics: a.String("diag", "")})
		case "node":
			u := core.NodeUpdate{Node: id, NodeName: a.String("name", id), DecommissionTimeout: a.Duration("timeout", 0)}
			u.State = nodeState(a)
			res.Nodes = append(res.Nodes, u)
		case "preempted":
			res.Preempted = append(res.Preempted, id)
		default:
			a.Fail("%q: want container, completed, node or preempted", strings.TrimSpace(in.Text))
		}
		if err := a.Err(); err != nil {
			return res, scenario.AtLine(in.Line, err)
		}
	}
	return res, nil
}

// nodeStates are the RM's names of the node states (NodeStateProto,
// without its NS_).
var nodeStates = map[string]core.NodeState{"RUNNING": core.NodeRunning, "UNHEALTHY": core.NodeUnhealthy,
	"DECOMMISSIONING": core.NodeDecommissioning, "DECOMMISSIONED": core.NodeDecommissioned, "LOST": core.NodeLost,
	"SHUTDOWN": core.NodeShutdown, "NEW": core.NodeOther}

// nodeState reads a node line's "state=SHUTDOWN".
func nodeState(a *scenario.Args) core.NodeState {
	name := a.String("state", "")
	s, ok := nodeStates[name]
	if !ok && a.Err() == nil {
		a.Fail("state %q: want RUNNING, UNHEALTHY, DECOMMISSIONING, DECOMMISSIONED, LOST, SHUTDOWN or NEW", name)
	}
	return s
}
