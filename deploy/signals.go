package deploy

import (
	"context"
	"fmt"
	"os"
	"os/signal"
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
func InterruptContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-sigs:
			cancel(Interrupted{sig})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		cancel(nil)
	}
}

// Interrupted is the cause of InterruptContext's context: the signal
// that cancelled it, for a command that handles signals itself and
// must know of one that came before it listened (runSessionSubmit).
type Interrupted struct{ Signal os.Signal }

func (e Interrupted) Error() string { return fmt.Sprintf("interrupted by %v", e.Signal) }
