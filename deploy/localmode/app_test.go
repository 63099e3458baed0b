package localmode

import (
	"io"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// A local session's driver keeps its session's limits; a job run in the
// CLI's process has none, and neither keeps containers.
func TestAppCarriesTheSessionsLimits(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	conf, err := config.Load(nil, []string{"spindle.session.maxRunningJobs=3"})
	if err != nil {
		t.Fatal(err)
	}
	log := logrus.New()
	log.SetOutput(io.Discard)
	for _, session := range []bool{true, false} {
		id := map[bool]string{true: "local-1-abcdef", false: "local-1-fedcba"}[session]
		l, dir, err := App(conf, log, Options{AppID: id, Executors: 1, Session: session})
		if err != nil {
			t.Fatal(err)
		}
		dir.Close()
		want := 0
		if session {
			want = 3
		}
		if l.Core.Limits.MaxRunningJobs != want || l.Core.Containers != nil || l.Core.AppID != id {
			t.Errorf("session %v: %+v; want at most %d running jobs, no containers", session, l.Core, want)
		}
	}
}

// Local executors sample their GPUs as spindle.executor.gpuSampleInterval
// says, as YARN's do.
func TestAppCarriesTheGPUSampleInterval(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	conf, err := config.Load(nil, []string{"spindle.executor.gpuSampleInterval=2s"})
	if err != nil {
		t.Fatal(err)
	}
	log := logrus.New()
	log.SetOutput(io.Discard)
	l, dir, err := App(conf, log, Options{AppID: "local-1-abcdef", Executors: 1})
	if err != nil {
		t.Fatal(err)
	}
	dir.Close()
	if l.Launcher.GPUSampleInterval != 2*time.Second {
		t.Errorf("the local launcher samples every %v; want 2s", l.Launcher.GPUSampleInterval)
	}
}
