package jobspec

import (
	"bytes"
	"encoding/json"

	"github.com/spindle-yarn/spindle/scheduler"
)

// MarshalSpec writes j as a JSON job spec that Parse reads back to the
// same job (but for its stages' Line and its Source, and an input's
// stage's Tasks, which its splits make: they travel with the splits): how a job built
// from a command line or a trace travels to an ApplicationMaster or a
// session, in the format users write.
func (j *Job) MarshalSpec() ([]byte, error) {
	type stage struct {
		Name           string            `json:"name"`
		After          []string          `json:"after,omitempty"`
		Tasks          *int              `json:"tasks,omitempty"` // none for an input's stage
		Input          any               `json:"input,omitempty"`
		Command        []string          `json:"command,omitempty"`
		Builtin        string            `json:"builtin,omitempty"`
		Resources      map[string]any    `json:"resources"`
		MaxAttempts    int               `json:"maxAttempts,omitempty"`
		Env            map[string]string `json:"env,omitempty"`
		PreferredHosts []string          `json:"preferredHosts,omitempty"`
		Gang           bool              `json:"gang,omitempty"`
		NodeLabel      string            `json:"nodeLabel,omitempty"`
		Placement      any               `json:"placement,omitempty"`
	}
	spec := struct {
		Name   string  `json:"name"`
		Pool   string  `json:"pool,omitempty"` // none: the reader's default pool
		Stages []stage `json:"stages"`
	}{Name: j.Name, Pool: j.Pool}
	for _, s := range j.Stages {
		tasks := &s.Tasks
		if len(s.Input.Paths) > 0 {
			tasks = nil // its splits make them
		}
		env := map[string]string{}
		for _, v := range s.Env {
			env[v.Name] = v.Value
		}
		spec.Stages = append(spec.Stages, stage{
			Name: s.Name, After: s.After, Tasks: tasks, Input: inputSpec(s.Input), Command: s.Command, Builtin: s.Builtin,
			Resources:   resourcesSpec(&s),
			MaxAttempts: s.MaxAttempts, Env: env, PreferredHosts: s.PreferredHosts, Gang: s.Gang, NodeLabel: s.NodeLabel,
			Placement: placementSpec(s.Placement),
		})
	}
	out, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	// YAML reads a raw NEL (U+0085) in a string as a line break; JSON
	// does not escape it.
	return bytes.ReplaceAll(out, []byte("\u0085"), []byte(`\u0085`)), nil
}

// resourcesSpec is s's resources as a spec writes them, its accelerators
// beside cpus, memory and gpus.
func resourcesSpec(s *Stage) map[string]any {
	r := map[string]any{"cpus": s.CPUs, "gpus": s.GPUs}
	if s.MemoryMB > 0 {
		r["memory"] = s.MemoryMB
	}
	for name, n := range s.Accels {
		r[name] = n
	}
	return r
}

// placementSpec is p as a spec writes it; nil for none.
func placementSpec(p scheduler.Placement) any {
	switch {
	case p.Affinity != "":
		return string(p.Affinity)
	case p.MaxPerNode > 0:
		return map[string]int{"maxPerNode": p.MaxPerNode}
	}
	return nil
}
