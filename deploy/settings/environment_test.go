package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/deploy/config"
)

// Keys named like secrets, and values that look like credentials
// whatever their key, are redacted; the rest are shown as they are.
func TestRedactHidesSecretsAndTokens(t *testing.T) {
	for _, c := range []struct {
		key, value string
		redacted   bool
	}{
		{"spindle.executorEnv.DB_PASSWORD", "hunter2", true},
		{"spindle.executorEnv.HF_TOKEN", "x", true},
		{"spindle.executorEnv.client_Secret", "x", true},
		{"spindle.kerberos.keytab", "/etc/alice.keytab", true},
		{"spindle.executorEnv.API_KEY", "x", true},
		{"spindle.executorEnv.NOTE", "ghp_aBcD1234eFgH5678iJkL", true},
		{"spindle.executorEnv.NOTE", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", true},
		{"spindle.executorEnv.DB", "postgres://alice:hunter2@db:5432/x", true},
		{"spindle.executorEnv.OPTS", "--flag x AUTH=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", true},
		{"spindle.executorEnv.OPTS", "wandb 3Fj9kLm2Qp7Rt5Vx8Zb1Nc4Hd6Gs0AaE", true},
		{"spindle.executorEnv.NOTE", "hf_abcdefghijklm", true}, // a token's prefix, 16 characters: the bound
		{"spindle.executorEnv.NOTE", "hf_abcdefghijkl", false}, // 15
		{"spindle.executorEnv.DB", "postgres://alice@db:5432/x", false},
		{"spindle.eventLog.dir", "/user/alice/.spindle/events/Application2026WithAVeryLongName123", false},
		{"spindle.app.name", "nightly-training-run-2026-12-07", false},
		{"spindle.executor.memory", "4g", false},
		{"spindle.executorEnv.DB_PASSWORD", "", false},
	} {
		got, redacted := Redact(c.key, c.value)
		if redacted != c.redacted || (redacted && got != Redacted) || (!redacted && got != c.value) {
			t.Errorf("Redact(%s, %q) = %q, %v; want redacted %v", c.key, c.value, got, redacted, c.redacted)
		}
	}
}

// The environment lists every key with its source, the environment
// variables that chose them, and no secret; a process that reads the
// settings file a submitter wrote names the submitter's sources.
func TestTheEnvironmentNamesSourcesAndRedacts(t *testing.T) {
	dir := t.TempDir()
	props := filepath.Join(dir, "spindle-defaults.conf")
	os.WriteFile(props, []byte("spindle.executor.memory 3g\nspark.task.cpus 2\n"), 0o644)
	conf, err := config.LoadFiles([]string{props}, []string{"spindle.app.name=ui-env", "spindle.executorEnv.DB_PASSWORD=hunter2"},
		config.Flag{Name: "--master", Key: "spindle.master", Value: "local[2]"})
	if err != nil {
		t.Fatal(err)
	}
	env := func(name string) (string, bool) {
		return map[string]string{"SPINDLE_CONF_DIR": dir}[name], name == "SPINDLE_CONF_DIR"
	}
	want := map[string]history.Setting{
		"spindle.app.name":                {Key: "spindle.app.name", Value: "ui-env", Source: "--conf"},
		"spindle.executorEnv.DB_PASSWORD": {Key: "spindle.executorEnv.DB_PASSWORD", Value: Redacted, Source: "--conf", Redacted: true},
		"spindle.executor.memory":         {Key: "spindle.executor.memory", Value: "3g", Source: props + ":1"},
		"spindle.task.cpus":               {Key: "spindle.task.cpus", Value: "2", Source: props + ":2 as spark.task.cpus"},
		"spindle.master":                  {Key: "spindle.master", Value: "local[2]", Source: "--master"},
		"spindle.ui.retainedJobs":         {Key: "spindle.ui.retainedJobs", Value: "1000", Source: "default"},
		"SPINDLE_CONF_DIR":                {Key: "SPINDLE_CONF_DIR", Value: dir, Source: "environment"},
	}
	check := func(what string, got []history.Setting) {
		t.Helper()
		seen := map[string]bool{}
		for _, s := range got {
			if strings.Contains(s.Value, "hunter2") {
				t.Errorf("%s: %s shows the secret", what, s.Key)
			}
			if w, ok := want[s.Key]; ok {
				seen[s.Key] = true
				if s != w {
					t.Errorf("%s: %+v, want %+v", what, s, w)
				}
			}
		}
		if len(seen) != len(want) {
			t.Errorf("%s: %d of the %d settings looked for: %v", what, len(seen), len(want), seen)
		}
	}
	check("the submitter's", Environment(conf, env))
	path := filepath.Join(dir, "settings")
	if err := WriteFile(path, conf, nil); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	check("read from its settings file", Environment(back, env))
}

// A line's origin is read only as WriteFile writes it.
func TestSettingsFileRefusesADamagedOrigin(t *testing.T) {
	for _, line := range []string{`spindle.app.name="x" # from "--conf"`, "spindle.app.name=\"x\"\t# from ", "spindle.app.name=\"x\"\t# from \"\"",
		"spindle.app.name=\"x\"\t# from \"--conf"} {
		path := filepath.Join(t.TempDir(), "spindle.conf")
		os.WriteFile(path, []byte(fileHeader+"\n"+line+"\n"), 0o600)
		if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), "spindle.conf:2: want KEY=\"VALUE\"") {
			t.Errorf("%q: %v, want it refused", line, err)
		}
	}
}
