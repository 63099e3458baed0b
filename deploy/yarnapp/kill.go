package yarnapp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// Report is the RM's report of application id.
func Report(ctx context.Context, rm *yarn.ApplicationClient, id *hadoopyarn.ApplicationIdProto) (*hadoopyarn.ApplicationReportProto, error) {
	rep, err := rm.GetApplicationReport(ctx, &hadoopyarn.GetApplicationReportRequestProto{ApplicationId: id})
	if errors.Is(err, ipc.ErrApplicationNotFound) {
		return nil, fmt.Errorf("%s: the ResourceManager does not know this application", yarn.ApplicationID(id))
	}
	if err != nil {
		return nil, err
	}
	return rep.GetApplicationReport(), nil
}

// Kill asks the RM to kill the application until it says done, then waits
// for its end state.
func Kill(ctx context.Context, w io.Writer, rm *yarn.ApplicationClient, id *hadoopyarn.ApplicationIdProto, r *hadoopyarn.ApplicationReportProto) error {
	name := yarn.ApplicationID(id)
	if Ended(r) {
		fmt.Fprintf(w, "%s had already ended: %s (%s)\n", name, State(r), FinalStatus(r))
		return nil
	}
	// The RM answers "kill under way" until it has stopped every container.
	for {
		resp, err := rm.ForceKillApplication(ctx, &hadoopyarn.KillApplicationRequestProto{ApplicationId: id})
		if err != nil {
			return fmt.Errorf("killing %s: %w", name, err)
		}
		if resp.GetIsKillCompleted() {
			break
		}
		if err := Pause(ctx, 200*time.Millisecond); err != nil {
			return fmt.Errorf("killing %s: %w", name, err)
		}
	}
	for {
		r, err := Report(ctx, rm, id)
		if err != nil {
			return err
		}
		if Ended(r) {
			fmt.Fprintf(w, "%s %s\n", name, State(r))
			return nil
		}
		if err := Pause(ctx, 200*time.Millisecond); err != nil {
			return fmt.Errorf("waiting for %s to end: %w", name, err)
		}
	}
}

// Pause waits d between two looks at the RM, or less if ctx ends first.
func Pause(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// KillInterrupted kills an application whose submitter was interrupted
// while it ran, and says so.
func KillInterrupted(w io.Writer, rm *yarn.ApplicationClient, id *hadoopyarn.ApplicationIdProto) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	name := yarn.ApplicationID(id)
	fmt.Fprintf(w, "interrupted: killing %s (spindle submit --no-wait leaves an application running)\n", name)
	r, err := Report(ctx, rm, id)
	if err == nil {
		err = Kill(ctx, w, rm, id, r)
	}
	if err != nil {
		return fmt.Errorf("interrupted, and killing %s failed: %w", name, err)
	}
	return fmt.Errorf("interrupted: %s killed", name)
}
