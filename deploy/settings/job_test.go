package settings

import (
	"testing"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
)

func TestNameAndPoolFlagsWinOverTheSpec(t *testing.T) {
	parse := func() *jobspec.Job {
		job, err := jobspec.Parse([]byte("name: spec-name\npool: spec-pool\nstages:\n  - {name: a, tasks: 1, command: \"true\"}\n"), "job.yaml", jobspec.Defaults{})
		if err != nil {
			t.Fatal(err)
		}
		return job
	}
	for _, c := range []struct {
		flags            []config.Flag
		wantName, wantPl string
		err              string
	}{
		{nil, "spec-name", "spec-pool", ""},
		{[]config.Flag{{Name: "--name", Key: "spindle.app.name", Value: "flag-name"}, {Name: "--pool", Key: "spindle.scheduler.pool", Value: "flag-pool"}}, "flag-name", "flag-pool", ""},
		{[]config.Flag{{Name: "--name", Key: "spindle.app.name", Value: "bad\x01name"}}, "", "", `--name "bad\x01name": contains a control character`},
	} {
		conf, err := config.Load(nil, nil, c.flags...)
		if err != nil {
			t.Fatal(err)
		}
		job := parse()
		err = OverrideJob(job, conf)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%v: err = %v, want %q", c.flags, err, c.err)
		case c.err == "" && (err != nil || job.Name != c.wantName || job.Pool != c.wantPl):
			t.Errorf("%v: job %q in pool %q, %v; want %q in %q", c.flags, job.Name, job.Pool, err, c.wantName, c.wantPl)
		}
	}
}

func TestLocalMasterFailuresReachTheSchedulerAndTheSpec(t *testing.T) {
	conf, err := config.Load(nil, nil, config.Flag{Name: "--master", Key: "spindle.master", Value: "local[2,3]"})
	if err != nil {
		t.Fatal(err)
	}
	d, err := JobDefaults(conf)
	if err != nil || d.MaxAttempts != 3 {
		t.Errorf("local[2,3]: a stage's default attempts %d, %v; want 3", d.MaxAttempts, err)
	}
	cfg, err := Scheduler(conf)
	if err != nil || cfg.MaxTaskFailures != 3 {
		t.Errorf("local[2,3]: the scheduler's attempts %d, %v; want 3", cfg.MaxTaskFailures, err)
	}
}
