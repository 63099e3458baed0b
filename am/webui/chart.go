package webui

import (
	"html/template"
	"slices"
	"strings"

	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/internal/svgplot"
)

// seriesColors colour the timeline's pools, in name order.
var seriesColors = []string{"#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"}

// timelineSVG charts executors held and busy, and tasks waiting in each
// pool, over the application's life: an SVG drawn on the server
// (internal/svgplot, as `spindle sim --plot` draws), no JavaScript.
func timelineSVG(points []history.Point) template.HTML {
	if len(points) < 2 {
		return `<p>Nothing to chart yet.</p>`
	}
	t0 := points[0].Time
	var held, busy []svgplot.Point
	waiting := map[string][]svgplot.Point{}
	for _, p := range points {
		for name := range p.Waiting {
			waiting[name] = nil
		}
	}
	pools := slices.Sorted(func(yield func(string) bool) {
		for name := range waiting {
			if !yield(name) {
				return
			}
		}
	})
	for _, p := range points {
		x := p.Time.Sub(t0).Seconds()
		held = append(held, svgplot.Point{X: x, Y: float64(p.Held)})
		busy = append(busy, svgplot.Point{X: x, Y: float64(p.Busy)})
		for _, name := range pools {
			waiting[name] = append(waiting[name], svgplot.Point{X: x, Y: float64(p.Waiting[name])})
		}
	}
	execs := svgplot.Panel{ID: "executors", YLabel: "executors", Whole: true, Series: []svgplot.Series{
		{ID: "executors-held", Label: "executors held", Color: "#1f77b4", Points: held},
		{ID: "executors-busy", Label: "executors busy", Color: "#ff7f0e", Dashed: true, Points: busy}}}
	tasks := svgplot.Panel{ID: "tasks", YLabel: "tasks waiting", Whole: true}
	for i, name := range pools {
		if len(tasks.Series) == svgplot.MaxSeries-len(execs.Series) {
			break // a legend nobody would read
		}
		tasks.Series = append(tasks.Series, svgplot.Series{ID: "waiting-" + name, Label: "waiting in " + name,
			Color: seriesColors[i%len(seriesColors)], Points: waiting[name]})
	}
	c := svgplot.Chart{Title: "Executors and waiting tasks", XLabel: "time (s since " + t0.UTC().Format("15:04:05") + ")",
		Panels: []svgplot.Panel{execs}}
	if len(tasks.Series) > 0 {
		c.Panels = append(c.Panels, tasks)
	}
	var b strings.Builder
	if err := c.WriteSVG(&b); err != nil {
		return template.HTML("<p>The chart did not draw: " + template.HTMLEscapeString(err.Error()) + "</p>")
	}
	return template.HTML(b.String())
}
