package deploy

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/internal/svgplot/svgtest"
)

func readSVG(t *testing.T, path string) svgtest.Node {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	root, err := svgtest.Parse(b)
	if err != nil {
		t.Fatalf("%s does not parse: %v", path, err)
	}
	return root
}

// peakOf is the highest value a series' path reaches in its panel, read
// back through the panel's vertical tick labels (each 4 units below its
// line).
func peakOf(t *testing.T, panel, path svgtest.Node) float64 {
	t.Helper()
	ticks := panel.Find("tick")
	var ys, vs []float64
	for _, tk := range ticks {
		if tk.Attr("class") == "tick y" {
			y, _ := strconv.ParseFloat(tk.Attr("y"), 64)
			v, _ := strconv.ParseFloat(tk.Text, 64)
			ys, vs = append(ys, y-4), append(vs, v)
		}
	}
	if len(ys) < 2 {
		t.Fatalf("panel %s has %d vertical ticks", panel.Attr("data-panel"), len(ys))
	}
	top := 1e9 // the path's least y: its highest point
	for _, y := range pathYs(t, path.Attr("d")) {
		top = min(top, y)
	}
	n := len(ys) - 1
	return vs[0] + (top-ys[0])*(vs[n]-vs[0])/(ys[n]-ys[0])
}

// pathYs are the vertical coordinates a step path ("M0 240H12V80H640")
// visits.
func pathYs(t *testing.T, d string) []float64 {
	t.Helper()
	var ys []float64
	for _, cmd := range strings.FieldsFunc(d, func(r rune) bool { return r == 'H' }) {
		var y string
		if m, ok := strings.CutPrefix(cmd, "M"); ok {
			_, y, _ = strings.Cut(m, " ")
		} else if _, v, ok := strings.Cut(cmd, "V"); ok {
			y = v
		} else {
			continue
		}
		f, err := strconv.ParseFloat(y, 64)
		if err != nil {
			t.Fatalf("path %q: %q: %v", d, cmd, err)
		}
		ys = append(ys, f)
	}
	return ys
}

// The chart of a dynamic-allocation file: each policy's executors held
// and busy and tasks waiting, found by id, axes labelled, and each
// policy's executors-held curve peaking where its run did.
func TestSimPlotDrawsSparksExecutorCurveBesideSpindles(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bursty.svg")
	spindle := simResult(t, append(simArgs("spindle"), "--plot", file)...)
	spark := simResult(t, simArgs("spark")...)
	root := readSVG(t, file)

	panels := map[string]svgtest.Node{}
	for _, p := range root.Find("panel") {
		panels[p.Attr("data-panel")] = p
	}
	paths := map[string]svgtest.Node{}
	for _, p := range root.Find("series") {
		paths[p.Attr("data-series")] = p
	}
	for _, id := range []string{"spindle-executors-held", "spindle-executors-busy", "spindle-tasks-waiting",
		"spark-executors-held", "spark-executors-busy", "spark-tasks-waiting"} {
		if paths[id].Attr("d") == "" {
			t.Errorf("no curve %q; the chart has %d", id, len(paths))
		}
	}
	var labels []string
	for _, l := range root.Find("axis-label") {
		labels = append(labels, l.Text)
	}
	if got := strings.Join(labels, "|"); got != "executors|tasks waiting|time (s)" {
		t.Errorf("axis labels %q", got)
	}
	for policy, res := range map[string]map[string]float64{"spindle": spindle, "spark": spark} {
		got := peakOf(t, panels["executors"], paths[policy+"-executors-held"])
		if d := got - res["peak_executors"]; d < -0.05 || d > 0.05 {
			t.Errorf("%s's executors held peak at %.2f on the chart, %v in the run", policy, got, res["peak_executors"])
		}
	}
	if paths["spindle-executors-held"].Attr("d") == paths["spark-executors-held"].Attr("d") {
		t.Error("the two policies' executor curves are the same: one run drawn twice?")
	}
}

// Static executors have no policy to compare: one run is drawn.
func TestSimPlotOfStaticExecutorsDrawsOneRun(t *testing.T) {
	file := filepath.Join(t.TempDir(), "static.svg")
	if out, err := run(t, append(simArgs("spindle"), "--plot", file, "--conf", "spindle.dynamicAllocation.enabled=false", "--conf", "spindle.executor.instances=4")...); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var ids []string
	for _, p := range readSVG(t, file).Find("series") {
		ids = append(ids, p.Attr("data-series"))
	}
	if got := strings.Join(ids, " "); got != "static-executors-held static-executors-busy static-tasks-waiting" {
		t.Errorf("series %q", got)
	}
}

// A path that cannot be written fails before the simulation, naming the
// flag and why; a run that fails leaves no file behind.
func TestSimPlotRefusesAPathItCannotWrite(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "no", "such", "p.svg")
	if _, err := run(t, "sim", "--trace", "../examples/sim/bursty.csv", "--plot", bad); err == nil ||
		err.Error() != "--plot "+bad+": cannot write in "+filepath.Dir(bad)+": no such file or directory" {
		t.Errorf("a missing directory: err = %v", err)
	}
	if _, err := run(t, "sim", "--trace", "../examples/sim/bursty.csv", "--plot", dir); err == nil || err.Error() != "--plot "+dir+": is a directory, want a file" {
		t.Errorf("a directory: err = %v", err)
	}
	if _, err := run(t, "sim", "--trace", "../examples/sim/bursty.csv", "--plot", ""); err == nil || !strings.Contains(err.Error(), "--plot: want a file") {
		t.Errorf("an empty path: err = %v", err)
	}
	file := filepath.Join(dir, "p.svg")
	_, err := run(t, append(simArgs("spindle"), "--plot", file, "--conf", "spindle.session.maxPendingTasksPerJob=239")...)
	if err == nil {
		t.Fatal("the run past the session's limit succeeded")
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("a failed run left %v in the plot's directory", left)
	}
}
