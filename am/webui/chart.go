package webui

import (
	"fmt"
	"html/template"
	"slices"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/am/history"
)

// Chart geometry, in SVG user units.
const (
	chartW, chartH      = 720, 220
	chartLeft, chartTop = 48, 12
	chartRight          = 160 // room for the legend
	chartBottom         = 36
)

var seriesColors = []string{"#1860a8", "#3e8e41", "#b5651d", "#8e44ad", "#c0392b", "#16a085", "#7f8c8d"}

// timelineSVG charts executors held and busy and tasks waiting per pool
// as step lines over time, drawn on the server: no JavaScript.
func timelineSVG(points []history.Point) template.HTML {
	if len(points) < 2 {
		return `<p>Nothing to chart yet.</p>`
	}
	type series struct {
		name string
		at   func(history.Point) int
	}
	all := []series{
		{"executors held", func(p history.Point) int { return p.Held }},
		{"executors busy", func(p history.Point) int { return p.Busy }},
	}
	pools := map[string]bool{}
	for _, p := range points {
		for name := range p.Waiting {
			pools[name] = true
		}
	}
	names := make([]string, 0, len(pools))
	for name := range pools {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		all = append(all, series{"waiting in " + name, func(p history.Point) int { return p.Waiting[name] }})
	}
	t0, t1 := points[0].Time, points[len(points)-1].Time
	span := max(t1.Sub(t0), time.Second)
	top := 1
	for _, s := range all {
		for _, p := range points {
			top = max(top, s.at(p))
		}
	}
	plotW, plotH := float64(chartW-chartLeft-chartRight), float64(chartH-chartTop-chartBottom)
	x := func(t time.Time) float64 { return chartLeft + plotW*float64(t.Sub(t0))/float64(span) }
	y := func(v int) float64 { return chartTop + plotH*(1-float64(v)/float64(top)) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="executors and waiting tasks over time">`, chartW, chartH, chartW, chartH)
	fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#888"/>`, chartLeft, y(0), chartLeft+plotW, y(0))
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%.1f" stroke="#888"/>`, chartLeft, chartTop, chartLeft, y(0))
	fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end" font-size="11">%d</text><text x="%d" y="%.1f" text-anchor="end" font-size="11">0</text>`, chartLeft-4, y(top)+4, top, chartLeft-4, y(0)+4)
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="end" font-size="11">%s</text>`, chartLeft+plotW, chartH-20, span.Round(time.Second))
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" font-size="11" class="axis-label">time (s since %s)</text>`, chartLeft+plotW/2, chartH-6, t0.UTC().Format("15:04:05"))
	fmt.Fprintf(&b, `<text x="12" y="%.1f" font-size="11" transform="rotate(-90 12 %.1f)" text-anchor="middle" class="axis-label">count</text>`, chartTop+plotH/2, chartTop+plotH/2)
	for i, s := range all {
		color := seriesColors[i%len(seriesColors)]
		var d strings.Builder
		for k, p := range points {
			if k == 0 {
				fmt.Fprintf(&d, "M%.1f %.1f", x(p.Time), y(s.at(p)))
				continue
			}
			fmt.Fprintf(&d, "H%.1fV%.1f", x(p.Time), y(s.at(p)))
		}
		fmt.Fprintf(&b, `<path class="series" data-series="%s" d="%s" fill="none" stroke="%s" stroke-width="1.5"/>`, template.HTMLEscapeString(s.name), d.String(), color)
		fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="10" height="3" fill="%s"/><text x="%.1f" y="%d" font-size="11">%s</text>`,
			chartLeft+plotW+12, chartTop+i*16+4, color, chartLeft+plotW+26, chartTop+i*16+9, template.HTMLEscapeString(s.name))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
