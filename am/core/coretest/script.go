package coretest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

// Run runs every script in dir (*.txt) as a subtest; with update it
// rewrites their expected output instead of comparing.
func Run(t *testing.T, dir string, update bool) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts in %s: %v", dir, err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) { runScript(t, f, update) })
	}
}

type block struct {
	line     int
	cmd      string
	input    []string
	expected string
}

func parse(t *testing.T, path string) (blocks []block, prologue []string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for i := 0; i < len(lines); {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			if len(blocks) == 0 {
				prologue = append(prologue, l)
			}
			i++
			continue
		}
		b := block{line: i + 1, cmd: l}
		for i++; i < len(lines) && lines[i] != "----"; i++ {
			b.input = append(b.input, lines[i])
		}
		if i == len(lines) {
			t.Fatalf("%s:%d: no ----", path, b.line)
		}
		var out []string
		for i++; i < len(lines) && lines[i] != ""; i++ {
			out = append(out, lines[i])
		}
		b.expected = strings.Join(out, "\n")
		blocks = append(blocks, b)
	}
	return blocks, prologue
}

func runScript(t *testing.T, path string, update bool) {
	blocks, prologue := parse(t, path)
	s := &script{}
	var rewritten strings.Builder
	for _, l := range prologue {
		rewritten.WriteString(l + "\n")
	}
	for i, b := range blocks {
		got, err := s.run(b)
		if err != nil {
			t.Fatalf("%s:%d: %s: %v", path, b.line, b.cmd, err)
		}
		if got = strings.TrimRight(got, "\n"); got == "" {
			got = "ok"
		}
		if i > 0 {
			rewritten.WriteString("\n")
		}
		rewritten.WriteString(b.cmd + "\n")
		for _, in := range b.input {
			rewritten.WriteString(in + "\n")
		}
		rewritten.WriteString("----\n" + got + "\n")
		if !update && got != b.expected {
			t.Errorf("%s:%d: %s\n got:\n%s\nwant:\n%s", path, b.line, b.cmd, got, b.expected)
		}
	}
	if update {
		if err := os.WriteFile(path, []byte(rewritten.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// args splits "cmd a=1 b" into the command, bare words and key=value
// pairs; "reason=", "why=" and "diag=" take the rest of the line.
func args(line string) (cmd string, bare []string, kv map[string]string) {
	kv = map[string]string{}
	for _, k := range []string{"reason", "why", "diag"} {
		if i := strings.Index(line, " "+k+"="); i >= 0 {
			kv[k] = line[i+len(k)+2:]
			line = line[:i]
		}
	}
	f := strings.Fields(line)
	if len(f) == 0 {
		return "", nil, kv
	}
	for _, w := range f[1:] {
		if k, v, ok := strings.Cut(w, "="); ok {
			kv[k] = v
		} else {
			bare = append(bare, w)
		}
	}
	return f[0], bare, kv
}

type script struct{ h *Harness }

func atoi(kv map[string]string, k string, def int) (int, error) {
	v, ok := kv[k]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q: not a number", k, v)
	}
	return n, nil
}

func duration(kv map[string]string, k string) (time.Duration, error) {
	v, ok := kv[k]
	if !ok {
		return 0, nil
	}
	return time.ParseDuration(v)
}

func (s *script) run(b block) (string, error) {
	cmd, bare, kv := args(b.cmd)
	if cmd != "config" && s.h == nil {
		return "", fmt.Errorf("no config yet")
	}
	h := s.h
	switch cmd {
	case "config":
		return "", s.config(bare, kv, b.input)
	case "submit":
		tasks, err := atoi(kv, "tasks", 1)
		if err != nil {
			return "", err
		}
		cpus, err := atoi(kv, "cpus", 1)
		if err != nil {
			return "", err
		}
		attempts, err := atoi(kv, "attempts", 4)
		if err != nil {
			return "", err
		}
		gpus := 0.0
		if v, ok := kv["gpus"]; ok {
			if gpus, err = strconv.ParseFloat(v, 64); err != nil {
				return "", err
			}
		}
		command := []string{"true"}
		if c, ok := kv["command"]; ok {
			command = []string{c}
		}
		job, err := jobspec.Short(kv["name"], tasks, command, jobspec.Defaults{CPUs: cpus, GPUs: gpus, MaxAttempts: attempts, Pool: kv["pool"]})
		if err != nil {
			return "", err
		}
		if m, ok := kv["mem"]; ok {
			if job.Stages[0].MemoryMB, err = strconv.ParseInt(m, 10, 64); err != nil {
				return "", fmt.Errorf("mem=%q: not a number of MiB", m)
			}
		}
		var stageProfiles []scheduler.ProfileID
		if v, ok := kv["profile"]; ok {
			p, err := strconv.Atoi(v)
			if err != nil {
				return "", fmt.Errorf("profile=%q: not a number", v)
			}
			stageProfiles = []scheduler.ProfileID{scheduler.ProfileID(p)}
		}
		id, err := h.Core.Submit(h.Now, job, stageProfiles)
		if err != nil {
			return "refused: " + err.Error(), nil
		}
		return fmt.Sprintf("job %d stages %v", id, h.Core.JobStages(id)), nil
	case "register":
		cores, err := atoi(kv, "cores", 1)
		if err != nil {
			return "", err
		}
		var gpus []string
		if v := kv["gpus"]; v != "" {
			gpus = strings.Split(v, ",")
		}
		if err := h.Core.Register(h.Now, core.Registration{Executor: scheduler.ExecutorID(kv["id"]), Host: kv["host"], Cores: cores, GPUs: gpus}); err != nil {
			return "refused: " + err.Error(), nil
		}
	case "status":
		if len(bare) != 2 {
			return "", fmt.Errorf("want status id=E ATTEMPT ok|fail|killed|started")
		}
		a, err := ParseAttempt(bare[0])
		if err != nil {
			return "", err
		}
		st := core.TaskStatus{Attempt: a, Reason: kv["reason"]}
		if st.ExitCode, err = atoi(kv, "exit", 0); err != nil {
			return "", err
		}
		switch bare[1] {
		case "ok":
			st.State = core.TaskSucceeded
		case "fail":
			st.State = core.TaskFailed
		case "killed":
			st.State = core.TaskKilled
		case "started":
			st.State = core.TaskStarted
		default:
			return "", fmt.Errorf("state %q", bare[1])
		}
		h.Core.Statuses(h.Now, scheduler.ExecutorID(kv["id"]), []core.TaskStatus{st})
	case "seen":
		h.Core.Seen(h.Now, scheduler.ExecutorID(kv["id"]))
	case "ended":
		h.Core.ConnectionEnded(h.Now, scheduler.ExecutorID(kv["id"]), kv["reason"])
	case "rejected":
		h.Core.Rejected()
	case "allocated":
		res, err := h.allocation(b.input)
		if err != nil {
			return "", err
		}
		if res.ClusterNodes, err = atoi(kv, "nodes", 0); err != nil {
			return "", err
		}
		h.Core.Allocated(h.Now, res)
	case "launch-failed":
		h.Core.LaunchFailed(h.Now, kv["id"], kv["why"])
	case "resynced":
		h.Core.Resynced(h.Now)
	case "fail":
		h.Core.Fail(h.Now, kv["reason"])
	case "cancel":
		id, err := atoi(kv, "job", 0)
		if err != nil {
			return "", err
		}
		if err := h.Core.Cancel(h.Now, scheduler.JobID(id), kv["reason"]); err != nil {
			return "refused: " + err.Error(), nil
		}
	case "stop":
		h.Core.Stop(h.Now, kv["reason"])
	case "jobs":
		return FormatJobs(h.Core.Jobs(h.Now)), nil
	case "advance":
		if len(bare) != 1 {
			return "", fmt.Errorf("want advance DURATION")
		}
		d, err := time.ParseDuration(bare[0])
		if err != nil {
			return "", err
		}
		h.Advance(d)
	case "ready":
		return Format(h.Ready(), h.Now), nil
	case "status-page":
		return FormatStatus(h.Core.Status(h.Now)), nil
	default:
		return "", fmt.Errorf("unknown command %q", cmd)
	}
	return "", nil
}

// config starts the core: flags as bare words (containers, fine, dynamic,
// session), numbers and durations as key=value, one profile per input
// line.
func (s *script) config(bare []string, kv map[string]string, input []string) error {
	var cfg core.Config
	var err error
	initial := map[scheduler.ProfileID]int{} // profile lines' own
	if cfg.LossReasonWait, err = duration(kv, "losswait"); err != nil {
		return err
	}
	if cfg.HeartbeatTimeout, err = duration(kv, "heartbeat"); err != nil {
		return err
	}
	if m, ok := kv["mode"]; ok {
		if cfg.Scheduler.Mode, err = scheduler.ParseSchedulingMode(m); err != nil {
			return err
		}
	}
	for _, l := range input {
		kind, _, p := args(l)
		if kind == "pool" {
			pc := scheduler.DefaultPoolConfig(p["name"])
			if pc.Weight, err = atoi(p, "weight", 1); err != nil {
				return err
			}
			if pc.MinShare, err = atoi(p, "minshare", 0); err != nil {
				return err
			}
			if m, ok := p["mode"]; ok {
				if pc.Mode, err = scheduler.ParseSchedulingMode(m); err != nil {
					return err
				}
			}
			cfg.Scheduler.Pools = append(cfg.Scheduler.Pools, pc)
			continue
		}
		var prof scheduler.Profile
		id, err := atoi(p, "id", 0)
		if err != nil {
			return err
		}
		prof.ID = scheduler.ProfileID(id)
		if prof.Cores, err = atoi(p, "cores", 1); err != nil {
			return err
		}
		if prof.GPUs, err = atoi(p, "gpus", 0); err != nil {
			return err
		}
		mem, err := atoi(p, "mem", 1024)
		if err != nil {
			return err
		}
		prof.MemoryMB = int64(mem)
		cfg.Profiles = append(cfg.Profiles, prof)
		if n, ok := p["initial"]; ok {
			if initial[prof.ID], err = strconv.Atoi(n); err != nil {
				return fmt.Errorf("initial=%q: not a number", n)
			}
		}
	}
	for _, w := range bare {
		switch w {
		case "containers":
			cc := &core.ContainerConfig{Initial: initial}
			first, err := atoi(kv, "initial", 0)
			if err != nil {
				return err
			}
			if len(cfg.Profiles) > 0 {
				if _, set := initial[cfg.Profiles[0].ID]; !set {
					cc.Initial[cfg.Profiles[0].ID] = first
				}
			}
			if cc.Heartbeat, err = duration(kv, "beat"); err != nil {
				return err
			}
			if cc.InitialAllocation, err = duration(kv, "eager"); err != nil {
				return err
			}
			for k, f := range map[string]*int{"maxgpus": &cc.MaxGPUsPerNode, "pernode": &cc.MaxFailuresPerNode, "maxfailures": &cc.MaxFailures} {
				if *f, err = atoi(kv, k, 0); err != nil {
					return err
				}
			}
			if cc.ExcludeTimeout, err = duration(kv, "exclude"); err != nil {
				return err
			}
			cfg.Containers = cc
		case "fine":
			cfg.OneTaskPerExecutor = true
		case "dynamic":
			max, err := atoi(kv, "max", 8)
			if err != nil {
				return err
			}
			cfg.Allocation = &dynalloc.Config{MaxExecutors: max, AllocationRatio: 1, IdleTimeout: 60 * time.Second, BacklogTimeout: time.Second,
				SustainedBacklogTimeout: time.Second, WarmPoolSize: 0, WarmPoolIdleTimeout: 60 * time.Second, SurplusIdleTimeout: 15 * time.Second,
				RampDownDelay: 5 * time.Second}
		case "session":
			cfg.Session = true
		default:
			return fmt.Errorf("unknown flag %q", w)
		}
	}
	s.h, err = New(cfg)
	return err
}

// allocation reads an allocate's answer from input lines.
// allocation reads an allocate's answer; a container names the ask it
// fills (ask=ID), or its profile (profile=P, ContainerFor).
func (h *Harness) allocation(input []string) (core.AllocateResult, error) {
	var res core.AllocateResult
	for _, l := range input {
		kind, bare, kv := args(l)
		if len(bare) != 1 {
			return res, fmt.Errorf("%q: want a container id", l)
		}
		switch kind {
		case "container":
			var ask int64
			if v, ok := kv["ask"]; ok {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					return res, fmt.Errorf("ask=%q: not an allocation request id", v)
				}
				ask = n
			} else {
				p, err := atoi(kv, "profile", 0)
				if err != nil {
					return res, err
				}
				ask = h.ContainerFor(scheduler.ProfileID(p))
			}
			name := kv["name"]
			if name == "" {
				name = kv["node"]
			}
			res.Allocated = append(res.Allocated, core.Container{ID: bare[0], Node: kv["node"], NodeName: name, Ask: ask})
		case "completed":
			st, err := atoi(kv, "status", 0)
			if err != nil {
				return res, err
			}
			res.Completed = append(res.Completed, core.Completion{Container: bare[0], ExitStatus: int32(st), Diagnostics: kv["diag"]})
		default:
			return res, fmt.Errorf("%q: want container or completed", l)
		}
	}
	return res, nil
}
