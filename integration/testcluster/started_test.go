package testcluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// make test's summary lists the clusters started by the lines that
// carry StartedPrefix: the Makefile's -mark must be it.
func TestTheMakefileMarksTheLineAStartLogs(t *testing.T) {
	makefile, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(Script())), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "-mark '" + StartedPrefix + "'"; !strings.Contains(string(makefile), want) {
		t.Errorf("the Makefile has no %s", want)
	}
}

func TestAConfigIsNamedByWhatSetsItApart(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "default"},
		{Config{Kerberos: true, RPCProtection: "privacy"}, "Kerberos privacy"},
		{Config{TokenMaxLifetime: time.Minute}, "short-token"},
		{Config{Preemption: true}, "preemption"},
		{Config{RMs: 2}, "RM HA"},
		{Config{Placement: Placement{Handler: "scheduler"}}, "placement"},
		{Config{Apart: "faults"}, "apart (faults)"},
	} {
		if got := c.cfg.String(); got != c.want {
			t.Errorf("%+v is named %q, want %q", c.cfg, got, c.want)
		}
	}
}
