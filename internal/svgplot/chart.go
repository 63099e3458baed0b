package svgplot

import "fmt"

// Chart is panels stacked over one time axis, under a title.
type Chart struct {
	Title  string
	XLabel string // the time axis' label, under the last panel: "time (s)"
	Panels []Panel
	// Note is a line under the title, saying what the reader should know
	// first (what was compared, how); none when empty.
	Note string
}

// Panel is one plot area with its own vertical axis and legend.
type Panel struct {
	ID     string // its <g class="panel" data-panel="ID">
	YLabel string
	Series []Series
	// Whole puts the vertical axis' ticks on whole numbers: counts.
	Whole bool
}

// Series is one step curve.
type Series struct {
	ID     string // its path's data-series
	Label  string // in the legend
	Color  string // a CSS colour: "#1f77b4"
	Dashed bool
	Points []Point // in time order
}

// MaxSeries bounds a chart's series, all panels together: more would be
// a legend nobody reads, and each may be MaxPoints long.
const MaxSeries = 64

// check refuses a chart that could not be drawn as asked: the ids are what
// a reader finds series by, so each is required and unique.
func (c Chart) check() error {
	if len(c.Panels) == 0 {
		return fmt.Errorf("chart %q has no panel", c.Title)
	}
	ids, n := map[string]bool{}, 0
	for _, p := range c.Panels {
		for _, s := range p.Series {
			if n++; n > MaxSeries {
				return fmt.Errorf("chart %q has more than %d series", c.Title, MaxSeries)
			}
			if s.ID == "" || ids[s.ID] {
				return fmt.Errorf("chart %q: series id %q is empty or not unique", c.Title, s.ID)
			}
			ids[s.ID] = true
		}
	}
	return nil
}

// xRange is the time every panel spans: from the earliest point to the
// latest, over every series.
func (c Chart) xRange() (lo, hi float64) {
	first := true
	for _, p := range c.Panels {
		for _, s := range p.Series {
			for _, pt := range s.Points {
				if !finite(pt.X) {
					continue
				}
				if first {
					lo, hi, first = pt.X, pt.X, false
				}
				lo, hi = min(lo, pt.X), max(hi, pt.X)
			}
		}
	}
	return lo, hi
}

// yRange is a panel's lowest and highest values, with 0 between them:
// counts stand on a zero line.
func (p Panel) yRange() (lo, hi float64) {
	for _, s := range p.Series {
		for _, pt := range s.Points {
			if finite(pt.Y) {
				lo, hi = min(lo, pt.Y), max(hi, pt.Y)
			}
		}
	}
	return lo, hi
}
