package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/executor/wire"
)

// RefindWithin bounds how long a client following a job looks for its
// YARN session's next ApplicationMaster attempt: YARN starts it within
// seconds of the last one's end, and it registers its address in as
// many more.
const RefindWithin = 2 * time.Minute

// Following is a job followed to its end from a goroutine of its own
// (FollowJob): its updates, and what became of its session meanwhile.
type Following struct {
	// Updates has the job's updates; the last has Ended set.
	Updates <-chan *wire.JobUpdate
	// Moved has the session's client each time the session is found
	// again, at its next attempt's address: requests about the job (a
	// cancel) go there from then on.
	Moved <-chan Client
	// Failed has why following ended before the job did.
	Failed <-chan error
}

// Refind is how a following finds its session again after losing it.
type Refind struct {
	Session string // the session's id, as notices name it
	// Find finds the session (Find's work, logged in as the user is),
	// within ctx.
	Find func(ctx context.Context) (Client, error)
	// Notice hears what the following says as it looks (from its
	// goroutine): "lost session …; looking for its next attempt".
	Notice func(string)
}

// FollowJob follows sub's job to its end, or until abort ends. A YARN
// session outlives its ApplicationMaster: when the session is lost
// (ErrLost) and refind is not nil, the session is found again, within
// RefindWithin, and the job followed on there, as the next attempt took
// over the session's jobs (docs/reliability.md). A local session has no
// next attempt: it is given a nil refind. The caller closes sub; the
// following closes any submission that replaced it.
func FollowJob(abort context.Context, sub *Submission, refind *Refind) Following {
	updates := make(chan *wire.JobUpdate)
	moved := make(chan Client, 1)
	failed := make(chan error, 1)
	go func() {
		cur := sub
		defer func() {
			if cur != sub {
				cur.Close()
			}
		}()
		for {
			u, err := cur.Next(abort)
			if err != nil && refind != nil && errors.Is(err, ErrLost) {
				var (
					again Client
					next  *Submission
				)
				if again, next, err = refind.follow(abort, sub.JobID, err); err == nil {
					if cur != sub {
						cur.Close()
					}
					cur = next
					select {
					case moved <- again:
					case <-abort.Done():
						return
					}
					continue
				}
			}
			if err != nil {
				failed <- err
				return
			}
			select {
			case updates <- u:
			case <-abort.Done():
				return
			}
			if u.GetEnded() {
				return
			}
		}
	}()
	return Following{Updates: updates, Moved: moved, Failed: failed}
}

// follow finds the session again after it was lost while job was
// followed, and follows the job there. lost is why it was lost.
func (r *Refind) follow(abort context.Context, job int64, lost error) (Client, *Submission, error) {
	r.Notice(fmt.Sprintf("lost session %s while following job %d; looking for its next attempt", r.Session, job))
	deadline := time.Now().Add(RefindWithin)
	for {
		ctx, cancel := context.WithTimeout(abort, 10*time.Second)
		client, err := r.Find(ctx)
		var sub *Submission
		if err == nil {
			sub, err = client.Follow(ctx, abort, job)
		}
		cancel()
		switch {
		case err == nil:
			r.Notice(fmt.Sprintf("following job %d in session %s again, at %s", job, r.Session, client.Addr))
			return client, sub, nil
		case abort.Err() != nil:
			return client, nil, context.Cause(abort)
		case errors.Is(err, ErrEnded), errors.Is(err, ErrRefused):
			return client, nil, fmt.Errorf("%w; then: %w", lost, err)
		case time.Now().After(deadline):
			return client, nil, fmt.Errorf("%w; not found again within %v: %w", lost, RefindWithin, err)
		}
		if err := yarnapp.Pause(abort, time.Second); err != nil {
			return client, nil, err
		}
	}
}
