package deploy

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// InterruptContext returns a context that SIGINT or SIGTERM cancels, with
// the cause "interrupted by <signal>" (context.Cause), and stop, which
// stops catching them and releases the context. main runs every command
// with it: the one way spindle handles signals (a task's guard, a process
// of its own, has its own).
//
// Only the first signal cancels. Later ones are caught and ignored until
// stop, so that a second Ctrl-C does not kill spindle while it cleans up
// after the first: killing the application it submitted, removing staged
// files, stopping its executors.
//
// A command that handles signals itself takes them over (takeSignals):
// from then on each comes to it, once, and none cancels the context.
func InterruptContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	h := &signalHub{sigs: make(chan os.Signal, 4), quit: make(chan struct{})}
	signal.Notify(h.sigs, syscall.SIGINT, syscall.SIGTERM)
	hubMu.Lock()
	hub = h
	hubMu.Unlock()
	go h.run(cancel)
	return ctx, func() {
		signal.Stop(h.sigs)
		close(h.quit)
		hubMu.Lock()
		if hub == h {
			hub = nil
		}
		hubMu.Unlock()
		cancel(nil)
	}
}

// signalHub is InterruptContext's one receiver of the process's signals.
// One receiver, not one per listener: a signal that reached two channels
// would count twice, and one a second listener began to hear just after
// it came would be heard by neither in time (the hub cancels under mu,
// so a command taking signals over sees a signal either as the
// context's cause or on its own channel, never both, never neither).
type signalHub struct {
	sigs chan os.Signal
	quit chan struct{}

	mu        sync.Mutex
	cancelled bool
	taker     chan os.Signal // set while a command has taken signals over
}

// hub is the process's InterruptContext, if one runs.
var (
	hubMu sync.Mutex
	hub   *signalHub
)

func (h *signalHub) run(cancel context.CancelCauseFunc) {
	for {
		select {
		case <-h.quit:
			return
		case sig := <-h.sigs:
			h.mu.Lock()
			switch {
			case h.taker != nil:
				select {
				case h.taker <- sig:
				default: // it has more than it will read
				}
			case !h.cancelled && sig != syscall.SIGHUP:
				h.cancelled = true
				cancel(Interrupted{sig})
			}
			h.mu.Unlock()
		}
	}
}

// takeSignals makes the process's SIGINT, SIGTERM and also extra come to
// the returned channel, until stop. A signal that came before is the
// InterruptContext's cause (Interrupted), never also on the channel.
// Without an InterruptContext (a test) the channel hears them directly.
func takeSignals(extra ...os.Signal) (sigs <-chan os.Signal, stop func()) {
	c := make(chan os.Signal, 4)
	all := append([]os.Signal{syscall.SIGINT, syscall.SIGTERM}, extra...)
	hubMu.Lock()
	h := hub
	hubMu.Unlock()
	if h == nil {
		signal.Notify(c, all...)
		return c, func() { signal.Stop(c) }
	}
	h.mu.Lock()
	h.taker = c
	h.mu.Unlock()
	signal.Notify(h.sigs, all...)
	return c, func() {
		h.mu.Lock()
		h.taker = nil
		h.mu.Unlock()
	}
}

// Interrupted is the cause of InterruptContext's context: the signal
// that cancelled it, for a command that handles signals itself and
// must know of one that came before it listened (runSessionSubmit).
type Interrupted struct{ Signal os.Signal }

func (e Interrupted) Error() string { return fmt.Sprintf("interrupted by %v", e.Signal) }
