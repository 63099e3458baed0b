package deploy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spindle-yarn/spindle/am/sim"
	"github.com/spindle-yarn/spindle/internal/svgplot"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
)

// plotFile is where --plot's chart goes: a file beside its destination,
// opened before the simulation so that a path it cannot write fails at
// once, and renamed into place only once the chart is whole.
type plotFile struct {
	path string
	tmp  *os.File
}

func openPlot(path string) (*plotFile, error) {
	if path == "" {
		return nil, errors.New("--plot: want a file to write the SVG chart to")
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("--plot %s: is a directory, want a file", path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("--plot %s: cannot write in %s: %w", path, filepath.Dir(path), err)
	}
	return &plotFile{path: path, tmp: tmp}, nil
}

// write puts the chart in place.
func (p *plotFile) write(c svgplot.Chart) error {
	err := c.WriteSVG(p.tmp)
	if err == nil {
		err = p.tmp.Chmod(0o644)
	}
	if cerr := p.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(p.tmp.Name(), p.path)
	}
	if err != nil {
		os.Remove(p.tmp.Name())
		return fmt.Errorf("--plot %s: %w", p.path, err)
	}
	return nil
}

// discard removes the unfinished file; after write, it does nothing.
func (p *plotFile) discard() {
	p.tmp.Close()
	os.Remove(p.tmp.Name())
}

// comparedPolicy is the options for the run drawn beside the configured
// one: under dynamic allocation, the same settings under the other policy
// (Spark's beside Spindle's, or Spindle's beside Spark's); with static
// executors there is no policy to compare, and ok is false.
func comparedPolicy(opts sim.Options) (other sim.Options, ok bool) {
	if opts.Core.Allocation == nil {
		return sim.Options{}, false
	}
	alloc := *opts.Core.Allocation
	alloc.Policy = dynalloc.PolicySpark
	if opts.Core.Allocation.Policy == dynalloc.PolicySpark {
		alloc.Policy = dynalloc.PolicySpindle
	}
	other = opts
	other.Core.Allocation = &alloc
	return other, true
}

// policyColours tell the policies apart in every panel.
var policyColours = map[string]string{"spindle": "#1f77b4", "spark": "#d95f02", "static": "#1b9e77"}

// simChart draws each run's containers held and executors busy over time
// above its tasks waiting. Series ids are POLICY-executors-held,
// POLICY-executors-busy and POLICY-tasks-waiting.
func simChart(trace string, runs []sim.Result) svgplot.Chart {
	execs := svgplot.Panel{ID: "executors", YLabel: "executors", Whole: true}
	waiting := svgplot.Panel{ID: "tasks", YLabel: "tasks waiting", Whole: true}
	names := ""
	for i, r := range runs {
		if i > 0 {
			names += " beside "
		}
		names += r.Policy
		colour := policyColours[r.Policy]
		tl := r.Timeline
		execs.Series = append(execs.Series,
			svgplot.Series{ID: r.Policy + "-executors-held", Label: r.Policy + ": executors held", Color: colour, Points: tl.Held},
			svgplot.Series{ID: r.Policy + "-executors-busy", Label: r.Policy + ": executors busy", Color: colour, Dashed: true, Points: tl.Busy})
		waiting.Series = append(waiting.Series,
			svgplot.Series{ID: r.Policy + "-tasks-waiting", Label: r.Policy + ": tasks waiting", Color: colour, Points: tl.Waiting})
	}
	return svgplot.Chart{
		Title:  "spindle sim " + filepath.Base(trace) + ": " + names,
		Note:   "executors held (containers granted, starting ones included) and busy (running a task); tasks waiting (queued or behind their stage's parents)",
		XLabel: "time (s)",
		Panels: []svgplot.Panel{execs, waiting},
	}
}
