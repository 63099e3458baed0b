package metrics

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/executor/gpuuse"
)

// docMetric is a row of docs/metrics.md's table of metrics.
type docMetric struct {
	typ    string
	labels map[string][]string // each label's values where the row lists them
}

var (
	docRow   = regexp.MustCompile("^\\| `(spindle_[a-z_]+)` \\| ([a-z]+) \\|([^|]*)\\|")
	docLabel = regexp.MustCompile("`([a-z_]+)`(?: \\(([^)]*)\\))?")
	docValue = regexp.MustCompile("`([^`]+)`")
)

// docMetrics reads docs/metrics.md's table of metrics.
func docMetrics(t *testing.T) map[string]docMetric {
	t.Helper()
	b, err := os.ReadFile("../../docs/metrics.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]docMetric{}
	for _, line := range strings.Split(string(b), "\n") {
		m := docRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		d := docMetric{typ: m[2], labels: map[string][]string{}}
		for _, l := range docLabel.FindAllStringSubmatch(m[3], -1) {
			d.labels[l[1]] = nil
			for _, v := range docValue.FindAllStringSubmatch(l[2], -1) {
				d.labels[l[1]] = append(d.labels[l[1]], v[1])
			}
		}
		out[m[1]] = d
	}
	if len(out) == 0 {
		t.Fatal("docs/metrics.md: no table of metrics (| `spindle_...` | type | labels | ...)")
	}
	return out
}

// everyFamily is a driver's metrics with a series in each family.
func everyFamily() *Metrics {
	m := New()
	m.Observe([]history.Event{configuredProd, at(0, prodJob), {ExecutorAdded: &history.ExecutorAdded{ID: "e1", Profile: "0", GPUs: []string{"0"}}},
		started(1, 10, 0, 0, "e1"), ended(2, 10, 0, 0, history.TaskSucceeded), started(2, 10, 1, 0, "e1"),
		{ExecutorRemoved: &history.ExecutorRemoved{ID: "e1", Lost: true}},
		{JobEnded: &history.JobEnded{ID: 1, State: history.JobFailed}}, {AppEnded: &history.AppEnded{}}})
	pct, used, total := 50, int64(1), int64(2)
	m.GPUSampled("e2", []gpuuse.Sample{{Index: 0, UtilizationPct: &pct, MemoryUsedMiB: &used, MemoryTotalMiB: &total}})
	m.AllocateSent([]core.Ask{{ID: 1, Count: 1}}, 1)
	m.Allocated(1)
	m.AllocateTook(time.Millisecond)
	m.JournalWritten(1, 1)
	m.JournalRefused(1)
	return m
}

// docs/metrics.md's table lists every metric of Spindle's own, both
// ways, each with its type and labels, and every value a label takes
// where the row lists them. No label names a job, task or stage, and
// only the GPU figures an executor, as the page says.
func TestTheDocsListEveryMetric(t *testing.T) {
	docs := docMetrics(t)
	fams := scrape(t, everyFamily())
	for name, f := range fams {
		if !strings.HasPrefix(name, Namespace+"_") {
			continue
		}
		d, ok := docs[name]
		if !ok {
			t.Errorf("%s is not in docs/metrics.md's table", name)
			continue
		}
		if typ := strings.ToLower(f.GetType().String()); typ != d.typ {
			t.Errorf("%s is a %s, docs/metrics.md says %s", name, typ, d.typ)
		}
		checkLabels(t, name, f, d)
	}
	for name := range docs {
		if fams[name] == nil {
			t.Errorf("docs/metrics.md lists %s, which /metrics does not serve", name)
		}
	}
}

func checkLabels(t *testing.T, name string, f *dto.MetricFamily, d docMetric) {
	t.Helper()
	for _, mt := range f.GetMetric() {
		var have []string
		for _, l := range mt.GetLabel() {
			have = append(have, l.GetName())
			switch values, ok := d.labels[l.GetName()]; {
			case !ok:
				t.Errorf("%s has label %s, which docs/metrics.md does not list", name, l.GetName())
			case values != nil && !slices.Contains(values, l.GetValue()):
				t.Errorf("%s{%s=%q}: docs/metrics.md lists %v only", name, l.GetName(), l.GetValue(), values)
			}
			switch l.GetName() {
			case "job", "task", "stage", "attempt":
				t.Errorf("%s is labelled by %s", name, l.GetName())
			case "executor":
				if !strings.HasPrefix(name, Namespace+"_gpu_") {
					t.Errorf("%s is labelled by executor, which only names a GPU", name)
				}
			}
		}
		if len(have) != len(d.labels) {
			t.Errorf("%s has labels %v, docs/metrics.md lists %d", name, have, len(d.labels))
		}
	}
}
