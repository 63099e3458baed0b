package settings

import (
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// The retry backoff settings reach the scheduler; a backoff above its cap
// is refused, naming both keys, rather than silently capped.
func TestSchedulerConfigRetryBackoff(t *testing.T) {
	load := func(overrides ...string) *config.Config {
		t.Helper()
		c, err := config.LoadFiles(nil, overrides)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	cfg, err := Scheduler(load("spindle.task.retry.backoff=50ms", "spindle.task.retry.maxBackoff=2s"))
	if err != nil || cfg.RetryBackoff != 50*time.Millisecond || cfg.RetryMaxBackoff != 2*time.Second {
		t.Fatalf("backoff %v, max %v, %v; want 50ms and 2s", cfg.RetryBackoff, cfg.RetryMaxBackoff, err)
	}
	if cfg, err := Scheduler(load("spindle.task.retry.backoff=2s", "spindle.task.retry.maxBackoff=2s")); err != nil || cfg.RetryBackoff != cfg.RetryMaxBackoff {
		t.Fatalf("a backoff equal to its cap: %+v, %v", cfg, err)
	}
	_, err = Scheduler(load("spindle.task.retry.backoff=20s"))
	want := "spindle.task.retry.backoff 20s is more than spindle.task.retry.maxBackoff 10s, which caps it"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
}
