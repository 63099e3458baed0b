package sim

import "github.com/spindle-yarn/spindle/internal/svgplot"

// Timeline is a run's counts over simulated time (seconds from its
// start), each as it stands once the core has decided at an instant, as
// step series of at most svgplot.MaxPoints points: a trace of days keeps
// its peaks and its shape in a bounded size.
type Timeline struct {
	// Held counts the containers the application holds (granted, not yet
	// released: starting executors included). Its highest is
	// PeakExecutors: the core releases no container at the instant it
	// is granted (TestTimelineFollowsTheRunsCounts).
	Held []svgplot.Point
	// Busy counts executors running at least one task.
	Busy []svgplot.Point
	// Waiting counts tasks of running jobs neither running nor done
	// (core.TasksWaiting).
	Waiting []svgplot.Point
}

// recorder samples a run's counts whenever they may have changed.
type recorder struct {
	held, busy, waiting *svgplot.Recorder
}

func newRecorder() *recorder {
	return &recorder{held: svgplot.NewRecorder(svgplot.MaxPoints), busy: svgplot.NewRecorder(svgplot.MaxPoints),
		waiting: svgplot.NewRecorder(svgplot.MaxPoints)}
}

// sample records the counts at the run's now; a run without a recorder
// (Options.Timeline unset) pays nothing.
func (r *run) sample() {
	if r.rec == nil {
		return
	}
	t := r.now.Sub(epoch).Seconds()
	r.rec.held.Add(t, float64(r.rm.Held()))
	r.rec.busy.Add(t, float64(r.busy))
	r.rec.waiting.Add(t, float64(r.core.TasksWaiting()))
}

func (rec *recorder) timeline() *Timeline {
	return &Timeline{Held: rec.held.Points(), Busy: rec.busy.Points(), Waiting: rec.waiting.Points()}
}
