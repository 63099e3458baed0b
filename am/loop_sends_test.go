package am

import (
	"context"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// What the loop posts reaches the executor: a cancelled job's running
// task is killed.
func TestCancelledJobsTaskIsKilled(t *testing.T) {
	job, err := jobspec.Short("j", 1, []string{"true"}, jobspec.Defaults{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(Config{Core: core.Config{Profiles: []scheduler.Profile{{Cores: 1}}}, Executors: listen(t, testSecret), Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go d.Run(ctx, job, nil)
	conn := fakeExecutor(t, d, "e1")
	cancel()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		m, err := conn.Recv()
		if err != nil {
			t.Fatalf("the executor got no Kill: %v", err)
		}
		if m.GetKill() != nil {
			return
		}
	}
}
