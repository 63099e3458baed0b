package am

import (
	"context"
	"fmt"
	"time"

	"github.com/spindle-yarn/spindle/yarnpb/ipc"
)

// reachRM runs call, an RPC to the RM, until it is answered or fails for
// a reason other than the RM being out of reach, or until y.RMWait has
// passed since the first failure, pausing y.RMRetryInterval between
// tries. An RM restarting or failing over is out of reach for seconds
// to minutes (longer than the RPC client's own few tries), and an
// allocate cut off in flight is not repeated by it: the AM waits that
// out rather than failing the application, as Hadoop's AM client does.
// Repeating an allocate is safe: the RM answers one it has answered
// already (the same response id) with the same answer, and a restarted
// RM says it forgot the application.
func (d *Driver) reachRM(ctx context.Context, what string, call func() error) error {
	y := d.rm.y
	var since time.Time
	for {
		err := call()
		if err == nil || !ipc.OutOfReach(err) || ctx.Err() != nil {
			if err == nil && !since.IsZero() {
				d.log.Infof("the ResourceManager answers again (%s), after %v", what, time.Since(since).Round(time.Millisecond))
			}
			return err
		}
		if since.IsZero() {
			since = time.Now()
			d.log.WithError(err).Warnf("the ResourceManager cannot be reached (%s): trying again every %v for up to %v", what, y.RMRetryInterval, y.RMWait)
		}
		if y.RMWait <= 0 || time.Since(since)+y.RMRetryInterval > y.RMWait {
			return fmt.Errorf("the ResourceManager was out of reach for %v (%s): %w", time.Since(since).Round(time.Millisecond), what, err)
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(y.RMRetryInterval):
		}
	}
}
