package integration

import (
	"context"
	"testing"
	"time"
)

// Helpers: waiting until something holds, polling.

// waitFor polls cond every 200ms until it holds, failing t after within.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !cond(); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", within, what)
		}
	}
}

// wait pauses a loop that ctx bounds for 200ms, failing t, naming what
// it waited for, once ctx is done.
func wait(ctx context.Context, t *testing.T, what string) {
	t.Helper()
	select {
	case <-ctx.Done():
		t.Fatalf("gave up waiting for %s: %v", what, ctx.Err())
	case <-time.After(200 * time.Millisecond):
	}
}
