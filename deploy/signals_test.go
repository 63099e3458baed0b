package deploy

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// The first SIGINT or SIGTERM cancels the context, its cause naming the
// signal as local and YARN submits report it; stop keeps that cause.
func TestInterruptContextNamesTheSignal(t *testing.T) {
	// Catching them here too keeps a broken InterruptContext from killing
	// the test binary: the test then fails instead.
	caught := make(chan os.Signal, 4)
	signal.Notify(caught, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(caught)
	for sig, want := range map[syscall.Signal]string{syscall.SIGINT: "interrupted by interrupt", syscall.SIGTERM: "interrupted by terminated"} {
		ctx, stop := InterruptContext(context.Background())
		if err := syscall.Kill(os.Getpid(), sig); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
			t.Fatalf("%v: the context was not cancelled", sig)
		}
		stop()
		if cause := context.Cause(ctx); cause == nil || cause.Error() != want {
			t.Errorf("%v: cause %v, want %q", sig, cause, want)
		}
	}

	ctx, stop := InterruptContext(context.Background())
	stop()
	if cause := context.Cause(ctx); !errors.Is(cause, context.Canceled) {
		t.Errorf("stopped without a signal: cause %v, want context.Canceled", cause)
	}
}
