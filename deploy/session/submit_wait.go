package session

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/executor/wire"
)

// SubmitWithin sends job to the session that find finds, as Submit
// does; a session between two attempts (ErrBetweenAttempts: its next AM
// not yet registered, or an RM that restarted not yet told where it is)
// or whose AM has just gone, the job not sent, is found again every
// second, for up to within, as a client following a job finds it again
// (Refind). notice hears, once, that it waits. Nothing is sent twice:
// only a Submit that sent nothing (ErrNotSent, ctx not ended) is tried
// again.
func SubmitWithin(ctx, abort context.Context, find func(context.Context) (Client, error), job *wire.SubmitJob,
	within time.Duration, notice func(string)) (Client, *Submission, error) {
	deadline := time.Now().Add(within)
	for waited := false; ; waited = true {
		client, err := find(ctx)
		if err != nil {
			err = fmt.Errorf("%w: %w", ErrNotSent, err)
		} else {
			var sub *Submission
			if sub, err = client.Submit(ctx, abort, job); err == nil {
				return client, sub, nil
			}
		}
		if !errors.Is(err, ErrNotSent) || ctx.Err() != nil || time.Now().After(deadline) || !waitable(err) {
			return client, nil, err
		}
		if !waited {
			notice(fmt.Sprintf("the session takes no job now (%v); trying again for up to %v", err, within))
		}
		if err := yarnapp.Pause(ctx, time.Second); err != nil {
			return client, nil, fmt.Errorf("%w: %w", ErrNotSent, context.Cause(ctx))
		}
	}
}

// waitable says whether a job not sent may be sent in a moment: the
// session is between attempts, or its AM did not answer the dial (it has
// just gone; the RM names its next attempt soon). A session that ended,
// refused the job or cannot be found at all is not waited for.
func waitable(err error) bool {
	return errors.Is(err, ErrBetweenAttempts) || (!errors.Is(err, ErrEnded) && !errors.Is(err, ErrRefused) && isDialError(err))
}

// isDialError says whether err is a failed dial: no one listening at the
// address, or no answer from its host.
func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
