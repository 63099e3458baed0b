package scheduler

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/scenarios/*.txt with the scheduler's output")

// TestGolden runs the scripts in testdata/scenarios, in the manner of
// etcd-io/raft's datadriven tests: each block is a command (with input
// lines under it), "----", and the expected output. `go test -run Golden
// -update` rewrites the expected output from what the scheduler does now.
//
// Commands (key=value arguments):
//
//	config mode=FAIR locality=3s maxfailures=4 exclusion=2/10m/2m backoff=200ms/10s
//	    (input lines: pool NAME weight=W minshare=M mode=FAIR)
//	profile id=0 cores=4 gpus=2
//	executor id=e1 host=h1 cores=4 gpus=0,1 profile=0
//	remove id=e1 reason=... fault
//	submit name=j pool=p
//	    (input lines: stage NAME tasks=N cpus=C gpus=G after=a,b
//	     profile=P attempts=A hosts=h1,h2 executors=e1)
//	finish s0/1#0 ok|fail|blameless|killed reason=...
//	cancel job=0 reason=...
//	advance 3s
//	ready | why job=0 | demand profile=0 | executors | wakeup
//	progress job=0 | progress pool=NAME
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) { runGolden(t, f) })
	}
}

type goldenBlock struct {
	line     int // of the command
	cmd      string
	input    []string
	expected string
}

func parseGolden(t *testing.T, path string) (blocks []goldenBlock, prologue []string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	i := 0
	for i < len(lines) {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			if len(blocks) == 0 {
				prologue = append(prologue, l)
			}
			i++
			continue
		}
		b := goldenBlock{line: i + 1, cmd: l}
		i++
		for i < len(lines) && lines[i] != "----" {
			if strings.TrimSpace(lines[i]) == "" {
				t.Fatalf("%s:%d: blank line before ----", path, i+1)
			}
			b.input = append(b.input, lines[i])
			i++
		}
		if i == len(lines) {
			t.Fatalf("%s:%d: no ----", path, b.line)
		}
		i++
		var out []string
		for i < len(lines) && lines[i] != "" {
			out = append(out, lines[i])
			i++
		}
		b.expected = strings.Join(out, "\n")
		blocks = append(blocks, b)
	}
	return blocks, prologue
}

func runGolden(t *testing.T, path string) {
	blocks, prologue := parseGolden(t, path)
	g := &golden{t: t, now: t0}
	var rewritten strings.Builder
	for _, l := range prologue {
		rewritten.WriteString(l + "\n")
	}
	for i, b := range blocks {
		got, err := g.run(b)
		if err != nil {
			t.Fatalf("%s:%d: %s: %v", path, b.line, b.cmd, err)
		}
		got = strings.TrimRight(got, "\n")
		if got == "" {
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
		if !*update && got != b.expected {
			t.Errorf("%s:%d: %s\n got:\n%s\nwant:\n%s", path, b.line, b.cmd, got, b.expected)
		}
	}
	if *update {
		if err := os.WriteFile(path, []byte(rewritten.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type golden struct {
	t   *testing.T
	s   *Scheduler
	now time.Time
}

// goldenArgs splits "cmd a=1 b c=x,y" into the command, its first bare
// word, and key=value pairs; "reason=" takes the rest of the line.
func goldenArgs(line string) (cmd string, bare []string, kv map[string]string) {
	kv = map[string]string{}
	if i := strings.Index(line, " reason="); i >= 0 {
		kv["reason"] = line[i+len(" reason="):]
		line = line[:i]
	}
	fields := strings.Fields(line)
	cmd = fields[0]
	for _, f := range fields[1:] {
		if k, v, ok := strings.Cut(f, "="); ok {
			kv[k] = v
		} else {
			bare = append(bare, f)
		}
	}
	return cmd, bare, kv
}

func atoi(kv map[string]string, k string, def int) (int, error) {
	v, ok := kv[k]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q: %v", k, v, err)
	}
	return n, nil
}

func list(v string) []string {
	if v == "" {
		return nil
	}
	return strings.Split(v, ",")
}

func (g *golden) sched() (*Scheduler, error) {
	if g.s == nil {
		s, err := New(Config{})
		if err != nil {
			return nil, err
		}
		g.s = s
	}
	return g.s, nil
}

func (g *golden) run(b goldenBlock) (string, error) {
	cmd, bare, kv := goldenArgs(b.cmd)
	if cmd == "config" {
		return g.config(kv, b.input)
	}
	s, err := g.sched()
	if err != nil {
		return "", err
	}
	// An event's error is output, not a failure of the script: scripts
	// show what is rejected.
	result := func(err error) (string, error) {
		if err != nil {
			return "error: " + err.Error(), nil
		}
		return "ok", nil
	}
	switch cmd {
	case "profile":
		id, _ := atoi(kv, "id", 0)
		cores, _ := atoi(kv, "cores", 1)
		gpus, _ := atoi(kv, "gpus", 0)
		return result(s.AddProfile(Profile{ID: ProfileID(id), Cores: cores, GPUs: gpus}))
	case "executor":
		p, _ := atoi(kv, "profile", 0)
		cores, _ := atoi(kv, "cores", 1)
		return result(s.AddExecutor(g.now, ExecutorSpec{ID: ExecutorID(kv["id"]), Host: kv["host"], Profile: ProfileID(p), Cores: cores, GPUs: list(kv["gpus"])}))
	case "remove":
		return result(s.RemoveExecutor(g.now, ExecutorID(kv["id"]), ExecutorLoss{Reason: kv["reason"], TaskFault: slices.Contains(bare, "fault")}))
	case "submit":
		spec, err := goldenJob(kv, b.input)
		if r, ok := err.(rejected); ok {
			return "error: " + r.Error(), nil
		} else if err != nil {
			return "", err
		}
		id, err := s.SubmitJob(g.now, spec)
		if err != nil {
			return "error: " + err.Error(), nil
		}
		return fmt.Sprintf("job %d", id), nil
	case "finish":
		if len(bare) != 2 {
			return "", fmt.Errorf("want finish sS/I#A OUTCOME")
		}
		var a AttemptID
		if _, err := fmt.Sscanf(bare[0], "s%d/%d#%d", &a.Task.Stage, &a.Task.Index, &a.Attempt); err != nil {
			return "", fmt.Errorf("attempt %q: %v", bare[0], err)
		}
		r := TaskResult{Reason: kv["reason"]}
		switch bare[1] {
		case "ok":
			r.Outcome = Succeeded
		case "fail":
			r.Outcome = Failed
		case "blameless":
			r.Outcome, r.Blameless = Failed, true
		case "killed":
			r.Outcome = Killed
		default:
			return "", fmt.Errorf("outcome %q", bare[1])
		}
		return result(s.TaskFinished(g.now, a, r))
	case "cancel":
		id, err := atoi(kv, "job", 0)
		if err != nil {
			return "", err
		}
		return result(s.CancelJob(JobID(id), kv["reason"]))
	case "advance":
		d, err := time.ParseDuration(bare[0])
		if err != nil {
			return "", err
		}
		g.now = g.now.Add(d)
		return "now +" + g.now.Sub(t0).String(), nil
	case "ready":
		return goldenReady(s.Ready(g.now)), nil
	case "why", "demand", "executors":
		out, err := g.query(cmd, kv)
		if out == "" {
			out = "none"
		}
		return out, err
	case "wakeup":
		w, ok := s.Wakeup(g.now)
		if !ok {
			return "none", nil
		}
		return "at +" + w.Sub(t0).String(), nil
	case "progress":
		var p Progress
		var ok bool
		if name, isPool := kv["pool"]; isPool {
			p, ok = s.PoolProgress(name)
		} else {
			id, _ := atoi(kv, "job", 0)
			p, ok = s.JobProgress(JobID(id))
		}
		if !ok {
			return "unknown", nil
		}
		return fmt.Sprintf("tasks %d: succeeded %d running %d pending %d; failed attempts %d", p.Tasks, p.Succeeded, p.Running, p.Pending, p.FailedAttempts), nil
	}
	return "", fmt.Errorf("unknown command %q", cmd)
}

// query runs the commands that list what the scheduler reports.
func (g *golden) query(cmd string, kv map[string]string) (string, error) {
	s := g.s
	switch cmd {
	case "why":
		id, _ := atoi(kv, "job", 0)
		var out []string
		for _, r := range s.WhyPending(g.now, JobID(id)) {
			out = append(out, fmt.Sprintf("stage %d %q: %d pending: %s: %s", r.Stage, r.Name, r.Pending, reasonName[r.Reason], r.Message))
		}
		return strings.Join(out, "\n"), nil
	case "demand":
		p, _ := atoi(kv, "profile", 0)
		var out []string
		for _, d := range s.Demand(g.now, ProfileID(p)) {
			out = append(out, fmt.Sprintf("stage %d: running %d pending %d per-executor %d excluded-only %v", d.Stage, d.Running, d.Pending, d.TasksPerExecutor, d.ExcludedOnly))
		}
		return strings.Join(out, "\n"), nil
	case "executors":
		var out []string
		for _, e := range s.Executors() {
			idle := "busy"
			if !e.IdleSince.IsZero() {
				idle = "idle since +" + e.IdleSince.Sub(t0).String()
			}
			out = append(out, fmt.Sprintf("%s %s profile %d: running %d, %d cores free, %s", e.ID, e.Host, e.Profile, e.Running, e.FreeCores, idle))
		}
		return strings.Join(out, "\n"), nil
	}
	return "", fmt.Errorf("unknown query %q", cmd)
}

var reasonName = map[Reason]string{
	ReasonNone:                  "none",
	ReasonWaitingForParents:     "parents",
	ReasonNoExecutors:           "no executors",
	ReasonInsufficientResources: "insufficient resources",
	ReasonExcludedHosts:         "excluded hosts",
	ReasonWaitingForLocality:    "locality",
	ReasonRetryBackoff:          "retry backoff",
}

func (g *golden) config(kv map[string]string, input []string) (string, error) {
	if g.s != nil {
		return "", fmt.Errorf("config must come first")
	}
	var cfg Config
	if m, ok := kv["mode"]; ok {
		mode, err := ParseSchedulingMode(m)
		if err != nil {
			return "", err
		}
		cfg.Mode = mode
	}
	if v, ok := kv["locality"]; ok {
		d, err := time.ParseDuration(v)
		if err != nil {
			return "", err
		}
		cfg.LocalityWait = d
	}
	n, err := atoi(kv, "maxfailures", 0)
	if err != nil {
		return "", err
	}
	cfg.MaxTaskFailures = n
	if v, ok := kv["exclusion"]; ok {
		parts := strings.Split(v, "/")
		if len(parts) != 3 {
			return "", fmt.Errorf("exclusion=%q: want K/TIMEOUT/UNSCHEDULABLE", v)
		}
		k, err := strconv.Atoi(parts[0])
		if err != nil {
			return "", err
		}
		timeout, err1 := time.ParseDuration(parts[1])
		unsched, err2 := time.ParseDuration(parts[2])
		if err1 != nil || err2 != nil {
			return "", fmt.Errorf("exclusion=%q: bad durations", v)
		}
		cfg.Exclusion = ExclusionConfig{Enabled: true, MaxFailuresPerHost: k, Timeout: timeout, UnschedulableTimeout: unsched}
	}
	if v, ok := kv["backoff"]; ok {
		base, ceiling, _ := strings.Cut(v, "/")
		var err1, err2 error
		cfg.RetryBackoff, err1 = time.ParseDuration(base)
		cfg.RetryMaxBackoff, err2 = time.ParseDuration(ceiling)
		if err1 != nil || err2 != nil {
			return "", fmt.Errorf("backoff=%q: want BASE/MAX durations", v)
		}
	}
	for _, l := range input {
		cmd, bare, kv := goldenArgs(l)
		if cmd != "pool" || len(bare) != 1 {
			return "", fmt.Errorf("config input %q: want pool NAME ...", l)
		}
		pc := DefaultPoolConfig(bare[0])
		pc.Weight, _ = atoi(kv, "weight", 1)
		pc.MinShare, _ = atoi(kv, "minshare", 0)
		if m, ok := kv["mode"]; ok {
			pc.Mode, _ = ParseSchedulingMode(m)
		}
		cfg.Pools = append(cfg.Pools, pc)
	}
	s, err := New(cfg)
	if err != nil {
		return "error: " + err.Error(), nil
	}
	g.s = s
	return "ok", nil
}

func goldenJob(kv map[string]string, input []string) (JobSpec, error) {
	spec := JobSpec{Name: kv["name"], Pool: kv["pool"]}
	for _, l := range input {
		cmd, bare, kv := goldenArgs(l)
		if cmd != "stage" || len(bare) != 1 {
			return spec, fmt.Errorf("submit input %q: want stage NAME ...", l)
		}
		ss := StageSpec{Name: bare[0], After: list(kv["after"]), PreferredHosts: list(kv["hosts"])}
		for _, e := range list(kv["executors"]) {
			ss.PreferredExecutors = append(ss.PreferredExecutors, ExecutorID(e))
		}
		var err error
		if ss.Tasks, err = atoi(kv, "tasks", 1); err != nil {
			return spec, err
		}
		if ss.Request.CPUs, err = atoi(kv, "cpus", 1); err != nil {
			return spec, err
		}
		p, err := atoi(kv, "profile", 0)
		if err != nil {
			return spec, err
		}
		ss.Profile = ProfileID(p)
		if ss.MaxAttempts, err = atoi(kv, "attempts", 0); err != nil {
			return spec, err
		}
		if v, ok := kv["gpus"]; ok {
			var amount float64
			if num, den, frac := strings.Cut(v, "/"); frac { // 1/3
				n, err1 := strconv.ParseFloat(num, 64)
				d, err2 := strconv.ParseFloat(den, 64)
				if err1 != nil || err2 != nil {
					return spec, fmt.Errorf("gpus=%q", v)
				}
				amount = n / d
			} else if amount, err = strconv.ParseFloat(v, 64); err != nil {
				return spec, err
			}
			g, err := ParseGPURequest(fmt.Sprintf("stage %q: gpus", ss.Name), amount)
			if err != nil {
				return spec, rejected{err}
			}
			ss.Request.GPU = g
		}
		spec.Stages = append(spec.Stages, ss)
	}
	return spec, nil
}

// rejected is an error the scheduler's API gave, to show as output.
type rejected struct{ error }

func goldenReady(rd Ready) string {
	var out []string
	for _, l := range rd.Launches {
		out = append(out, fmt.Sprintf("launch s%d/%d#%d job %d on %s (%s) gpus [%s]", l.Attempt.Task.Stage, l.Attempt.Task.Index, l.Attempt.Attempt, l.Job, l.Executor, l.Host, strings.Join(l.Addresses, " ")))
	}
	for _, k := range rd.Kills {
		out = append(out, fmt.Sprintf("kill s%d/%d#%d on %s: %s", k.Attempt.Task.Stage, k.Attempt.Task.Index, k.Attempt.Attempt, k.Executor, k.Reason))
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
