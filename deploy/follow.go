package deploy

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
)

// reportFunc fetches an application's current report.
type reportFunc func(ctx context.Context) (*hadoopyarn.ApplicationReportProto, error)

// follow polls report every interval and prints the application's state
// changes and tracking URL to w until it ends; on a terminal it also draws a
// progress bar while the application runs. It returns nil exactly when the
// application's final status is SUCCEEDED, an error with the diagnostics
// when it ended otherwise, and report's or ctx's error if either comes first.
//
// A ResourceManager out of reach (restarting, failing over: ipc.OutOfReach)
// is asked again every interval for up to rmWait
// (yarn.resourcemanager.connect.max-wait.ms), as Hadoop's own clients
// do, saying so once; 0 gives up at once.
func follow(ctx context.Context, id string, report reportFunc, w io.Writer, terminal bool, interval, rmWait time.Duration) error {
	f := &follower{id: id, report: report, w: w, terminal: terminal, interval: interval, rmWait: rmWait, now: time.Now}
	return f.run(ctx)
}

// barWidth is the bar's width in cells, small enough that the whole line
// (id, state, bar, percent, elapsed) fits an 80-column terminal: a line
// that wraps cannot be redrawn with \r.
const barWidth = 20

// follower is follow's state; now is its clock.
type follower struct {
	id       string
	report   reportFunc
	w        io.Writer
	terminal bool
	interval time.Duration
	rmWait   time.Duration // how long an RM out of reach is asked again
	now      func() time.Time

	began time.Time // when following began: elapsed time without a start time
	state string    // the last state printed
	url   string    // the last tracking URL printed
	drawn int       // the length of the bar's line on screen; 0 when none is
	lost  time.Time // when the RM went out of reach; zero while it answers
}

func (f *follower) run(ctx context.Context) error {
	f.began = f.now()
	defer f.endBar()
	for {
		r, err := f.report(ctx)
		if err != nil {
			if err = f.outOfReach(ctx, err); err != nil {
				return err
			}
			continue
		}
		f.reached()
		if st := yarnapp.State(r); st != f.state {
			// Keep the last bar seen: it shows how far the application got.
			f.endBar()
			f.state = st
			fmt.Fprintf(f.w, "%s %s\n", f.id, st)
		}
		if u := r.GetTrackingUrl(); u != "" && u != f.url {
			f.clearBar()
			f.url = u
			fmt.Fprintf(f.w, "tracking URL: %s\n", u)
		}
		if yarnapp.Ended(r) {
			if r.GetFinalApplicationStatus() == hadoopyarn.FinalApplicationStatusProto_APP_SUCCEEDED {
				return nil
			}
			return fmt.Errorf("%s ended %s (%s): %s", f.id, yarnapp.State(r), yarnapp.FinalStatus(r), r.GetDiagnostics())
		}
		if f.terminal && r.GetYarnApplicationState() == hadoopyarn.YarnApplicationStateProto_RUNNING {
			f.drawBar(r)
		}
		if err := yarnapp.Pause(ctx, f.interval); err != nil {
			return err
		}
	}
}

// outOfReach returns err, unless it is the RM out of reach for less than
// rmWait: then it says so (the first time), pauses, and returns nil for
// the report to be asked again.
func (f *follower) outOfReach(ctx context.Context, err error) error {
	if f.rmWait <= 0 || !ipc.OutOfReach(err) || ctx.Err() != nil {
		return err
	}
	now := f.now()
	if f.lost.IsZero() {
		f.lost = now
		f.clearBar()
		fmt.Fprintf(f.w, "the ResourceManager is out of reach (%v): asking again for up to %v\n", err, f.rmWait)
	}
	if now.Sub(f.lost) >= f.rmWait {
		return fmt.Errorf("the ResourceManager was out of reach for %v: %w", now.Sub(f.lost).Round(time.Millisecond), err)
	}
	return yarnapp.Pause(ctx, f.interval)
}

// reached notes a report answered, saying so if the RM was out of reach.
func (f *follower) reached() {
	if !f.lost.IsZero() {
		f.clearBar()
		fmt.Fprintf(f.w, "the ResourceManager answers again, after %v\n", f.now().Sub(f.lost).Round(time.Millisecond))
		f.lost = time.Time{}
	}
}

// drawBar redraws the bar's line in place.
func (f *follower) drawBar(r *hadoopyarn.ApplicationReportProto) {
	start := f.began
	if ms := r.GetStartTime(); ms > 0 {
		start = time.UnixMilli(ms)
	}
	line := barLine(f.id, yarnapp.State(r), r.GetProgress(), f.now().Sub(start))
	// Blank out what a longer line before left.
	pad := max(f.drawn-len(line), 0)
	fmt.Fprintf(f.w, "\r%s%s", line, strings.Repeat(" ", pad))
	f.drawn = len(line) + pad
}

// endBar ends the bar's line, leaving it on screen.
func (f *follower) endBar() {
	if f.drawn > 0 {
		fmt.Fprintln(f.w)
		f.drawn = 0
	}
}

// clearBar blanks the bar's line, leaving the cursor at its start.
func (f *follower) clearBar() {
	if f.drawn > 0 {
		fmt.Fprintf(f.w, "\r%s\r", strings.Repeat(" ", f.drawn))
		f.drawn = 0
	}
}

// barLine is the bar's text:
//
//	application_1700000000000_0001 RUNNING [=====               ]  25% 1m30s
func barLine(id, state string, progress float32, elapsed time.Duration) string {
	p := clampProgress(progress)
	// The epsilon keeps a float32 such as 0.29 (0.28999…) from showing 28%.
	percent := int(math.Floor(p*100 + 1e-4))
	cells := min(int(math.Floor(p*barWidth+1e-4)), barWidth)
	elapsed = max(elapsed, 0) // the RM's clock may run ahead of ours
	return fmt.Sprintf("%s %s %s %3d%% %s", id, state, bar(cells, barWidth), percent, elapsed.Round(time.Second))
}

// clampProgress maps a reported progress into [0, 1]; NaN counts as none.
func clampProgress(progress float32) float64 {
	p := float64(progress)
	switch {
	case math.IsNaN(p) || p < 0:
		return 0
	case p > 1:
		return 1
	}
	return p
}
