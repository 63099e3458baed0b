package svgplot

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/internal/svgplot/svgtest"
)

func render(t *testing.T, c Chart) svgtest.Node {
	t.Helper()
	var buf bytes.Buffer
	if err := c.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	root, err := svgtest.Parse(buf.Bytes())
	if err != nil {
		t.Fatalf("the SVG does not parse: %v\n%s", err, buf.String())
	}
	if root.XMLName.Space != "http://www.w3.org/2000/svg" || root.XMLName.Local != "svg" {
		t.Fatalf("root %v, want svg in the SVG namespace", root.XMLName)
	}
	return root
}

func twoPanels() Chart {
	return Chart{Title: "a <title> & more", XLabel: "time (s)", Panels: []Panel{
		{ID: "executors", YLabel: "executors", Whole: true, Series: []Series{
			{ID: "held", Label: "executors held", Color: "#123456", Points: []Point{{0, 0}, {10, 3}, {20, 1}}},
			{ID: "busy", Label: "executors busy", Color: "#123456", Dashed: true, Points: []Point{{0, 0}, {12, 2}}},
		}},
		{ID: "tasks", YLabel: "tasks waiting", Series: []Series{{ID: "waiting", Label: "tasks waiting", Color: "#000", Points: []Point{{0, 40}, {30, 0}}}}},
	}}
}

// Each series is a path found by its id, each panel has its axis label and
// legend, the time axis its label, and text is escaped.
func TestChartNamesEverySeriesAndAxis(t *testing.T) {
	root := render(t, twoPanels())
	paths := map[string]svgtest.Node{}
	for _, p := range root.Find("series") {
		paths[p.Attr("data-series")] = p
	}
	for _, id := range []string{"held", "busy", "waiting"} {
		if paths[id].Attr("d") == "" {
			t.Errorf("no path for series %q", id)
		}
	}
	if paths["busy"].Attr("stroke-dasharray") == "" || paths["held"].Attr("stroke-dasharray") != "" {
		t.Error("only the dashed series is dashed")
	}
	var labels []string
	for _, l := range root.Find("axis-label") {
		labels = append(labels, l.Text)
	}
	if got := strings.Join(labels, "|"); got != "executors|tasks waiting|time (s)" {
		t.Errorf("axis labels %q", got)
	}
	if got := len(root.Find("legend-entry")); got != 3 {
		t.Errorf("%d legend entries, want 3", got)
	}
	if got := root.Find("title"); len(got) != 1 || got[0].Text != "a <title> & more" {
		t.Errorf("title %v", got)
	}
}

// A step path holds each value until the next point's time and the last
// to the axis' end: held's 0, 3, 1 at 0, 10, 20 on an axis of 0 to 30
// over 640 pixels, 0 to 3 over 240.
func TestStepPathHoldsEachValue(t *testing.T) {
	x := axis{lo: 0, hi: 30, px: 640}
	yAt := func(v float64) float64 { return 240 - v*80 }
	got := stepPath([]Point{{10, 3}, {0, 0}, {20, 1}}, x, yAt)
	if want := "M0 240H213.3V0H426.7V160H640"; got != want {
		t.Errorf("path %q, want %q", got, want)
	}
}

// Counts get whole ticks; the axis reaches past the highest value.
func TestTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		whole  bool
		want   string
	}{
		{0, 3, true, "3 [0 1 2 3]"},
		{0, 2, false, "2 [0 0.5 1 1.5 2]"},
		{0, 2, true, "2 [0 1 2]"},
		{0, 5e-324, false, "5e-324 [0 5e-324]"},
		{0, 24, true, "25 [0 5 10 15 20 25]"},
		{0, 0, true, "1 [0 1]"},
		{0, 3542, false, "4000 [0 1000 2000 3000 4000]"},
	} {
		top, at := ticks(c.lo, c.hi, c.whole)
		if got := fmt.Sprint(top, " ", at); got != c.want {
			t.Errorf("ticks(%v, %v, %v) = %s, want %s", c.lo, c.hi, c.whole, got, c.want)
		}
	}
}

// Charts that cannot be read as asked are refused: no panel, an id
// missing or repeated, more series than MaxSeries (that many are drawn).
func TestChartRefusesWhatCannotBeRead(t *testing.T) {
	many := func(n int) Chart {
		p := Panel{ID: "p"}
		for i := range n {
			p.Series = append(p.Series, Series{ID: fmt.Sprint("s", i)})
		}
		return Chart{Panels: []Panel{p}}
	}
	if err := many(MaxSeries).WriteSVG(&bytes.Buffer{}); err != nil {
		t.Errorf("%d series: %v", MaxSeries, err)
	}
	for name, c := range map[string]Chart{
		"no panel":     {Title: "x"},
		"repeated id":  {Panels: []Panel{{Series: []Series{{ID: "a"}}}, {Series: []Series{{ID: "a"}}}}},
		"empty id":     {Panels: []Panel{{Series: []Series{{}}}}},
		"past the max": many(MaxSeries + 1),
	} {
		if err := c.WriteSVG(&bytes.Buffer{}); err == nil {
			t.Errorf("%s: drawn", name)
		}
	}
}

// A series longer than MaxPoints is drawn in at most MaxPoints points.
func TestChartDrawsAtMostMaxPointsPerSeries(t *testing.T) {
	ps := make([]Point, 2*MaxPoints)
	for i := range ps {
		ps[i] = Point{float64(i), float64(i % 2)}
	}
	root := render(t, Chart{Panels: []Panel{{ID: "p", Series: []Series{{ID: "s", Points: ps}}}}})
	d := root.Find("series")[0].Attr("d")
	if n := strings.Count(d, "V") + 1; n > MaxPoints {
		t.Errorf("%d points drawn of %d, want at most %d", n, len(ps), MaxPoints)
	}
}
