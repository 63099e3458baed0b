package svgplot

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
)

// The layout, in SVG user units (pixels at 100%).
const (
	width       = 960
	plotLeft    = 70  // room for the vertical axis' ticks and label
	plotWidth   = 640 // the plot area; the legend is right of it
	legendLeft  = plotLeft + plotWidth + 20
	firstTop    = 70 // below the title and note
	panelHeight = 240
	panelGap    = 50 // the time ticks under each panel
)

// WriteSVG writes the chart as one SVG document. Series longer than
// MaxPoints are downsampled (Downsample); points that are not finite are
// left out.
func (c Chart) WriteSVG(w io.Writer) error {
	if err := c.check(); err != nil {
		return err
	}
	// The time axis ends where the data does; its ticks stop before.
	xlo, xhi := c.xRange()
	if xhi == xlo {
		xhi = xlo + 1
	}
	_, all := ticks(xlo, xhi, false)
	xticks := slices.DeleteFunc(all, func(v float64) bool { return v > xhi*(1+1e-9) })
	height := firstTop + len(c.Panels)*(panelHeight+panelGap) + 30
	e := &writer{enc: xml.NewEncoder(w)}
	e.start(xml.Name{Space: "http://www.w3.org/2000/svg", Local: "svg"}, "class", "svgplot",
		"width", num(width), "height", num(float64(height)), "viewBox", fmt.Sprintf("0 0 %d %d", width, height),
		"font-family", "sans-serif", "font-size", "12")
	e.leaf("title", c.Title)
	e.leaf("rect", "", "width", "100%", "height", "100%", "fill", "white")
	e.leaf("text", c.Title, "class", "title", "x", num(width/2), "y", "28", "text-anchor", "middle", "font-size", "16")
	if c.Note != "" {
		e.leaf("text", c.Note, "class", "note", "x", num(width/2), "y", "48", "text-anchor", "middle", "fill", "#555")
	}
	for i, p := range c.Panels {
		top := float64(firstTop + i*(panelHeight+panelGap))
		x := axis{lo: xlo, hi: xhi, ticks: xticks, px: plotWidth}
		p.write(e, top, x)
	}
	last := float64(firstTop + len(c.Panels)*(panelHeight+panelGap) - panelGap + 38)
	e.leaf("text", c.XLabel, "class", "axis-label x", "x", num(plotLeft+plotWidth/2), "y", num(last), "text-anchor", "middle")
	e.end()
	if e.err == nil {
		e.err = e.enc.Flush()
	}
	return e.err
}

// axis maps values from lo to hi onto px pixels.
type axis struct {
	lo, hi float64
	ticks  []float64
	px     float64
}

func (a axis) at(v float64) float64 {
	if a.hi == a.lo {
		return 0
	}
	return (v - a.lo) / (a.hi - a.lo) * a.px
}

// write draws the panel with its top-left corner at (plotLeft, top).
func (p Panel) write(e *writer, top float64, x axis) {
	lo, hi := p.yRange()
	ytop, yticks := ticks(lo, hi, p.Whole)
	y := axis{lo: lo, hi: ytop, ticks: yticks, px: panelHeight}
	yAt := func(v float64) float64 { return panelHeight - y.at(v) }
	e.start(xml.Name{Local: "g"}, "class", "panel", "data-panel", p.ID, "transform", fmt.Sprintf("translate(%d,%s)", plotLeft, num(top)))
	e.leaf("rect", "", "class", "frame", "width", num(plotWidth), "height", num(panelHeight), "fill", "none", "stroke", "#999")
	for _, v := range y.ticks {
		e.leaf("line", "", "class", "grid", "x1", "0", "x2", num(plotWidth), "y1", num(yAt(v)), "y2", num(yAt(v)), "stroke", "#eee")
		e.leaf("text", label(v), "class", "tick y", "x", "-6", "y", num(yAt(v)+4), "text-anchor", "end")
	}
	for _, v := range x.ticks {
		e.leaf("line", "", "class", "grid", "x1", num(x.at(v)), "x2", num(x.at(v)), "y1", "0", "y2", num(panelHeight), "stroke", "#eee")
		e.leaf("text", label(v), "class", "tick x", "x", num(x.at(v)), "y", num(panelHeight+16), "text-anchor", "middle")
	}
	e.leaf("text", p.YLabel, "class", "axis-label y", "transform", fmt.Sprintf("translate(-50,%d) rotate(-90)", panelHeight/2), "text-anchor", "middle")
	for _, s := range p.Series {
		attrs := []string{"class", "series", "data-series", s.ID, "d", stepPath(s.Points, x, yAt), "fill", "none", "stroke", s.Color, "stroke-width", "2"}
		if s.Dashed {
			attrs = append(attrs, "stroke-dasharray", "6 4")
		}
		e.start(xml.Name{Local: "path"}, attrs...)
		e.leaf("title", s.Label)
		e.end()
	}
	e.start(xml.Name{Local: "g"}, "class", "legend", "transform", fmt.Sprintf("translate(%d,10)", legendLeft-plotLeft))
	for i, s := range p.Series {
		ly := num(float64(i * 20))
		attrs := []string{"x1", "0", "x2", "28", "y1", ly, "y2", ly, "stroke", s.Color, "stroke-width", "2"}
		if s.Dashed {
			attrs = append(attrs, "stroke-dasharray", "6 4")
		}
		e.leaf("line", "", attrs...)
		e.leaf("text", s.Label, "class", "legend-entry", "data-series", s.ID, "x", "34", "y", num(float64(i*20)+4))
	}
	e.end()
	e.end()
}

// stepPath is the curve through points, each value held until the next
// point's time and the last one to the axis' end.
func stepPath(points []Point, x axis, yAt func(float64) float64) string {
	var ps []Point
	for _, p := range points {
		if finite(p.X) && finite(p.Y) {
			ps = append(ps, p)
		}
	}
	slices.SortStableFunc(ps, func(a, b Point) int {
		switch {
		case a.X < b.X:
			return -1
		case a.X > b.X:
			return 1
		}
		return 0
	})
	ps = Downsample(ps, MaxPoints)
	if len(ps) == 0 {
		return ""
	}
	d := make([]byte, 0, 16*len(ps))
	d = fmt.Appendf(d, "M%s %s", num(x.at(ps[0].X)), num(yAt(ps[0].Y)))
	for _, p := range ps[1:] {
		d = fmt.Appendf(d, "H%sV%s", num(x.at(p.X)), num(yAt(p.Y)))
	}
	return string(fmt.Appendf(d, "H%s", num(x.px)))
}

// num writes a coordinate to a tenth of a pixel, as short as it reads.
func num(f float64) string { return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64) }

// writer writes SVG elements, keeping the first error.
type writer struct {
	enc  *xml.Encoder
	err  error
	open []xml.Name // the elements started and not yet ended
}

// start starts an element with attributes given as name, value pairs.
func (w *writer) start(name xml.Name, attrs ...string) {
	start := xml.StartElement{Name: name}
	for i := 0; i+1 < len(attrs); i += 2 {
		start.Attr = append(start.Attr, xml.Attr{Name: xml.Name{Local: attrs[i]}, Value: attrs[i+1]})
	}
	w.open = append(w.open, name)
	w.token(start)
}

// end ends the element started last.
func (w *writer) end() {
	n := len(w.open) - 1
	w.token(xml.EndElement{Name: w.open[n]})
	w.open = w.open[:n]
}

// leaf is an element holding only text (none when empty).
func (w *writer) leaf(name, text string, attrs ...string) {
	w.start(xml.Name{Local: name}, attrs...)
	if text != "" {
		w.token(xml.CharData(text))
	}
	w.end()
}

func (w *writer) token(t xml.Token) {
	if w.err == nil {
		w.err = w.enc.EncodeToken(t)
	}
}
