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

// A command that takes signals over hears each signal exactly once:
// one that came before as the context's cause, one after on its channel,
// and one that comes as it takes over as one or the other, never both,
// never neither (the early-SIGINT race a CI run caught: the submit was
// still running 5 s after a SIGINT).
func TestTakenSignalsCountOnceAtEveryMoment(t *testing.T) {
	caught := make(chan os.Signal, 4)
	signal.Notify(caught, syscall.SIGINT)
	defer signal.Stop(caught)
	for i := range 200 {
		ctx, stop := InterruptContext(context.Background())
		if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		if i%2 == 1 {
			time.Sleep(time.Duration(i%7) * 100 * time.Microsecond)
		}
		sigs, release := takeSignals(syscall.SIGHUP)
		var onChannel bool
		select {
		case <-sigs:
			onChannel = true
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
			t.Fatalf("try %d: the signal was heard neither as the cause nor on the channel", i)
		}
		asCause := ctx.Err() != nil
		if onChannel == asCause {
			t.Fatalf("try %d: on the channel %v, the context's cause %v; want exactly one", i, onChannel, context.Cause(ctx))
		}
		release()
		stop()
	}
}

// Once taken over, SIGINT, SIGTERM and SIGHUP each come to the channel
// and none cancels the context.
func TestTakenSignalsComeToTheTaker(t *testing.T) {
	caught := make(chan os.Signal, 4)
	signal.Notify(caught, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(caught)
	ctx, stop := InterruptContext(context.Background())
	defer stop()
	sigs, release := takeSignals(syscall.SIGHUP)
	defer release()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		syscall.Kill(os.Getpid(), sig)
		select {
		case got := <-sigs:
			if got != sig {
				t.Errorf("sent %v, the taker heard %v", sig, got)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%v never came to the taker", sig)
		}
	}
	if ctx.Err() != nil {
		t.Errorf("a taken signal cancelled the context: %v", context.Cause(ctx))
	}
}
