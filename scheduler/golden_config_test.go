package scheduler

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spindle-yarn/spindle/internal/scenario"
)

// config reads "config ..." and its pool lines; it must come first.
func (g *golden) config(a *scenario.Args, input []scenario.Input) (string, error) {
	if g.s != nil {
		return "", fmt.Errorf("config must come first")
	}
	var cfg Config
	if a.Has("mode") {
		mode, err := ParseSchedulingMode(a.String("mode", ""))
		if err != nil {
			return "", err
		}
		cfg.Mode = mode
	}
	cfg.LocalityWait = a.Duration("locality", 0)
	cfg.MaxTaskFailures = a.Int("maxfailures", 0)
	if v := a.String("exclusion", ""); v != "" {
		parts := strings.Split(v, "/")
		if len(parts) != 3 {
			return "", fmt.Errorf("exclusion=%q: want K/TIMEOUT/UNSCHEDULABLE", v)
		}
		k, err := strconv.Atoi(parts[0])
		if err != nil {
			return "", fmt.Errorf("exclusion=%q: %q is not a whole number", v, parts[0])
		}
		cfg.Exclusion = ExclusionConfig{Enabled: true, MaxFailuresPerHost: k, Timeout: a.ParseDuration("exclusion", parts[1]),
			UnschedulableTimeout: a.ParseDuration("exclusion", parts[2])}
	}
	if v := a.String("backoff", ""); v != "" {
		base, ceiling, _ := strings.Cut(v, "/")
		cfg.RetryBackoff, cfg.RetryMaxBackoff = a.ParseDuration("backoff", base), a.ParseDuration("backoff", ceiling)
	}
	if v := a.String("gang", ""); v != "" {
		cfg.Gang = goldenGang(a, v)
	}
	if v := a.String("speculation", ""); v != "" {
		cfg.Speculation = goldenSpeculation(a, v)
	}
	if err := a.Err(); err != nil {
		return "", err
	}
	for _, in := range input {
		pc, err := goldenPool(in.Text)
		if err != nil {
			return "", scenario.AtLine(in.Line, err)
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

// goldenSpeculation reads speculation=MULTIPLIER/QUANTILE/MINRUNTIME, on
// for every stage by default.
func goldenSpeculation(a *scenario.Args, v string) SpeculationConfig {
	parts := strings.Split(v, "/")
	if len(parts) != 3 {
		a.Fail("speculation=%q: want MULTIPLIER/QUANTILE/MINRUNTIME", v)
		return SpeculationConfig{}
	}
	m, err1 := strconv.ParseFloat(parts[0], 64)
	q, err2 := strconv.ParseFloat(parts[1], 64)
	if err1 != nil || err2 != nil {
		a.Fail("speculation=%q: multiplier and quantile must be numbers", v)
	}
	return SpeculationConfig{Enabled: true, Multiplier: m, Quantile: q, MinTaskRuntime: a.ParseDuration("speculation", parts[2])}
}

// goldenGang reads gang=TIMEOUT/RETRIES or gang=TIMEOUT/RETRIES/soft.
func goldenGang(a *scenario.Args, v string) GangConfig {
	parts := strings.Split(v, "/")
	if len(parts) < 2 || len(parts) > 3 || len(parts) == 3 && parts[2] != "soft" {
		a.Fail("gang=%q: want TIMEOUT/RETRIES or TIMEOUT/RETRIES/soft", v)
		return GangConfig{}
	}
	retries, err := strconv.Atoi(parts[1])
	if err != nil {
		a.Fail("gang=%q: %q is not a whole number", v, parts[1])
	}
	return GangConfig{Timeout: a.ParseDuration("gang", parts[0]), MaxRetries: retries, Soft: len(parts) == 3}
}

// goldenPool reads "pool NAME weight=W minshare=M mode=FAIR".
func goldenPool(line string) (PoolConfig, error) {
	a := scenario.ParseArgs(line)
	if a.Cmd != "pool" {
		return PoolConfig{}, fmt.Errorf("config input %q: want pool NAME ...", line)
	}
	pc := DefaultPoolConfig(a.Words(1)[0])
	pc.Weight = a.Int("weight", 1)
	pc.MinShare = a.Int("minshare", 0)
	if a.Has("mode") {
		m, err := ParseSchedulingMode(a.String("mode", ""))
		if err != nil {
			return pc, err
		}
		pc.Mode = m
	}
	return pc, a.Err()
}

// goldenJob reads a submit's stage lines; an error of the scheduler's own
// API (a GPU request it refuses) is rejected, shown as output.
func goldenJob(a *scenario.Args, input []scenario.Input) (JobSpec, error) {
	spec := JobSpec{Name: a.String("name", ""), Pool: a.String("pool", "")}
	if err := a.Err(); err != nil {
		return spec, err
	}
	for _, in := range input {
		ss, err := goldenStage(in.Text)
		if _, ok := err.(rejected); ok {
			return spec, err
		} else if err != nil {
			return spec, scenario.AtLine(in.Line, err)
		}
		spec.Stages = append(spec.Stages, ss)
	}
	return spec, nil
}

// goldenStage reads "stage NAME tasks=N cpus=C gpus=G after=a,b ...".
func goldenStage(line string) (StageSpec, error) {
	a := scenario.ParseArgs(line)
	if a.Cmd != "stage" {
		return StageSpec{}, fmt.Errorf("submit input %q: want stage NAME ...", line)
	}
	gang := a.Flag("gang") // before Words: the name is the word left
	speculate, noSpeculate := a.Flag("speculate"), a.Flag("nospeculate")
	ss := StageSpec{Gang: gang, Name: a.Words(1)[0], After: a.List("after"), PreferredHosts: a.List("hosts"), Tasks: a.Int("tasks", 1),
		Profile: ProfileID(a.Int("profile", 0)), MaxAttempts: a.Int("attempts", 0)}
	ss.Request.CPUs = a.Int("cpus", 1)
	if speculate || noSpeculate {
		ss.Speculation = &speculate
	}
	for _, e := range a.List("executors") {
		ss.PreferredExecutors = append(ss.PreferredExecutors, ExecutorID(e))
	}
	ss.TaskLocality = goldenPrefer(a.List("prefer"))
	if a.Has("wait") {
		w := a.Duration("wait", 0)
		ss.LocalityWait = &w
	}
	if !a.Has("gpus") {
		return ss, a.Err()
	}
	amount := gpuAmount(a)
	if err := a.Err(); err != nil {
		return ss, err
	}
	g, err := ParseGPURequest(fmt.Sprintf("stage %q: gpus", ss.Name), amount)
	if err != nil {
		return ss, rejected{err}
	}
	ss.Request.GPU = g
	return ss, nil
}

// goldenPrefer reads each task's preferences, prefer=h1+h2@r1,h3,-:
// hosts joined by "+", then "@" and the racks joined by "+"; "-" for
// none.
func goldenPrefer(tasks []string) []TaskLocality {
	var out []TaskLocality
	for _, t := range tasks {
		var l TaskLocality
		hosts, racks, _ := strings.Cut(t, "@")
		if hosts != "-" && hosts != "" {
			l.Hosts = strings.Split(hosts, "+")
		}
		if racks != "" {
			l.Racks = strings.Split(racks, "+")
		}
		out = append(out, l)
	}
	return out
}

// gpuAmount reads gpus=N, gpus=0.5 or gpus=1/3.
func gpuAmount(a *scenario.Args) float64 {
	v := a.String("gpus", "")
	num, den, frac := strings.Cut(v, "/")
	if !frac {
		return a.Float("gpus", 0)
	}
	n, err1 := strconv.ParseFloat(num, 64)
	d, err2 := strconv.ParseFloat(den, 64)
	if err1 != nil || err2 != nil {
		a.Fail("gpus=%q: want N, N.F or N/D", v)
	}
	return n / d
}

// rejected is an error the scheduler's API gave, to show as output.
type rejected struct{ error }
