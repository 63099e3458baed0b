package executor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// envOf is an environment for Sources.Env made of KEY=VALUE pairs, with
// the test process's PATH so scripts can run their tools.
func envOf(kv ...string) func(string) (string, bool) {
	m := map[string]string{"PATH": os.Getenv("PATH")}
	for _, e := range kv {
		k, v, _ := strings.Cut(e, "=")
		m[k] = v
	}
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

// writeFile writes content to name in a fresh directory and returns its path.
func writeFile(t *testing.T, name, content string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// script writes an executable shell script with body and returns its path.
func script(t *testing.T, body string) string {
	t.Helper()
	return writeFile(t, "discover.sh", "#!/bin/sh\n"+body+"\n", 0o755)
}

// gpuScript is a discovery script printing addrs (a JSON array body).
func gpuScript(t *testing.T, addrs string) string {
	return script(t, `echo '{"name":"gpu","addresses":[`+addrs+`]}'`)
}

func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one containing %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not contain %q", err, p)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
