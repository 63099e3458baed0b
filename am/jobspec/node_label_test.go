package jobspec

import (
	"strings"
	"testing"
)

// A stage's nodeLabel is read, held to YARN's label pattern and bound,
// and travels in MarshalSpec to the ApplicationMaster.
func TestStageNodeLabel(t *testing.T) {
	spec := func(label string) string {
		return "name: j\nstages:\n  - {name: s, tasks: 1, command: \"true\", nodeLabel: " + label + "}\n"
	}
	j, err := Parse([]byte(spec("gpu-a100_2")), "j.yaml", Defaults{})
	if err != nil || j.Stages[0].NodeLabel != "gpu-a100_2" {
		t.Fatalf("%+v, %v", j, err)
	}
	out, err := j.MarshalSpec()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(out, "marshalled", Defaults{})
	if err != nil || back.Stages[0].NodeLabel != "gpu-a100_2" {
		t.Fatalf("marshalled %s: %+v, %v", out, back, err)
	}
	if j, err := Parse([]byte(spec(strings.Repeat("x", 255))), "j.yaml", Defaults{}); err != nil || len(j.Stages[0].NodeLabel) != 255 {
		t.Errorf("a label of 255 characters: %v", err)
	}
	for label, want := range map[string]string{
		`""`:                     "1 to 255 characters",
		strings.Repeat("x", 256): "1 to 255 characters",
		"gpu.a100":               "not a YARN node label",
		"-gpu":                   "not a YARN node label",
		"[a]":                    "not a string",
	} {
		_, err := Parse([]byte(spec(label)), "j.yaml", Defaults{})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "nodeLabel") || !strings.Contains(err.Error(), "j.yaml:3") {
			t.Errorf("nodeLabel %.20q: %v, want an error at j.yaml:3 naming nodeLabel and saying %q", label, err, want)
		}
	}
}
