package jobspec

import (
	"bytes"
	"encoding/json"
)

// MarshalSpec writes j as a JSON job spec that Parse reads back to the
// same job (but for its stages' Line and its Source): how a job built
// from a command line or a trace travels to an ApplicationMaster or a
// session, in the format users write.
func (j *Job) MarshalSpec() ([]byte, error) {
	type resources struct {
		CPUs     int     `json:"cpus"`
		MemoryMB int64   `json:"memory,omitempty"`
		GPUs     float64 `json:"gpus"`
	}
	type stage struct {
		Name           string            `json:"name"`
		After          []string          `json:"after,omitempty"`
		Tasks          int               `json:"tasks"`
		Command        []string          `json:"command,omitempty"`
		Builtin        string            `json:"builtin,omitempty"`
		Resources      resources         `json:"resources"`
		MaxAttempts    int               `json:"maxAttempts,omitempty"`
		Env            map[string]string `json:"env,omitempty"`
		PreferredHosts []string          `json:"preferredHosts,omitempty"`
		Gang           bool              `json:"gang,omitempty"`
		NodeLabel      string            `json:"nodeLabel,omitempty"`
	}
	spec := struct {
		Name   string  `json:"name"`
		Pool   string  `json:"pool,omitempty"` // none: the reader's default pool
		Stages []stage `json:"stages"`
	}{Name: j.Name, Pool: j.Pool}
	for _, s := range j.Stages {
		env := map[string]string{}
		for _, v := range s.Env {
			env[v.Name] = v.Value
		}
		spec.Stages = append(spec.Stages, stage{
			Name: s.Name, After: s.After, Tasks: s.Tasks, Command: s.Command, Builtin: s.Builtin,
			Resources:   resources{CPUs: s.CPUs, MemoryMB: s.MemoryMB, GPUs: s.GPUs},
			MaxAttempts: s.MaxAttempts, Env: env, PreferredHosts: s.PreferredHosts, Gang: s.Gang, NodeLabel: s.NodeLabel,
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
