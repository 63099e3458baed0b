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
)

// reportFunc fetches an application's current report.
type reportFunc func(ctx context.Context) (*hadoopyarn.ApplicationReportProto, error)

// follow polls report every interval and prints the application's state
// changes and tracking URL to w until it ends; on a terminal it also draws a
// progress bar while the application runs. It returns nil exactly when the
// application's final status is SUCCEEDED, an error with the diagnostics
// when it ended otherwise, and report's or ctx's error if either comes first.
func follow(ctx context.Context, id string, report reportFunc, w io.Writer, terminal bool, interval time.Duration) error {
	f := &follower{id: id, report: report, w: w, terminal: terminal, interval: interval, now: time.Now}
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
	now      func() time.Time

	began time.Time // when following began: elapsed time without a start time
	state string    // the last state printed
	url   string    // the last tracking URL printed
	drawn int       // the length of the bar's line on screen; 0 when none is
}

func (f *follower) run(ctx context.Context) error {
	f.began = f.now()
	defer f.endBar()
	for {
		r, err := f.report(ctx)
		if err != nil {
			return err
		}
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
