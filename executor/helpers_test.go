package executor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/executor/contain"
)

// envOf is an environment for Sources.Env made of KEY=VALUE pairs, after
// the test process's PATH so scripts can run their tools.
func envOf(kv ...string) []string {
	return append([]string{"PATH=" + os.Getenv("PATH")}, kv...)
}

func TestMain(m *testing.M) {
	contain.MaybeGuard()
	os.Exit(m.Run())
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
