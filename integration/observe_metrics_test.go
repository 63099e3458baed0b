package integration

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

// On YARN /metrics is the tracking URL's, through the RM's web proxy: it
// parses with Prometheus's text parser, its task counts are the REST
// API's beside it, and it counts the containers the real RM allocated
// and the allocates' round trips. The job is left to end by itself, as
// TestYarnTrackingURLShowsTheRunningJob leaves its own.
func TestObserveMetricsThroughTheRMProxy(t *testing.T) {
	c := testcluster.Get(t)
	spec := writeSpec(t, "name: yarn-metrics\nstages:\n  - {name: s, tasks: 2, command: \"sleep 2\"}\n")
	cmd, buf := startOn(t, c, "submit", "--master", "yarn", "--conf", "spindle.executor.instances=1", "--conf", "spindle.executor.memory=512m", spec)
	defer cmd.Wait()
	defer cmd.Process.Kill()

	// One executor of one core: one task runs while the other waits.
	var base string
	var fams map[string]*dto.MetricFamily
	var api, scraped string
	waitFor(t, time.Minute, "/metrics through the proxy with a task running", func() bool {
		if m := submittedID.FindStringSubmatch(buf.String()); m != nil && base == "" {
			if url := appTrackingURL(t, c, m[1]); strings.Contains(url, "/proxy/") {
				base = strings.TrimSuffix(url, "/")
			}
		}
		if base == "" {
			return false
		}
		var app struct {
			Tasks struct{ Succeeded, Running, Waiting int }
		}
		if getJSON(t, base+"/api/v1/session", &app) != http.StatusOK {
			return false
		}
		api = fmt.Sprintf("%d succeeded, %d running, %d waiting", app.Tasks.Succeeded, app.Tasks.Running, app.Tasks.Waiting)
		var err error
		if fams, err = scrapeMetrics(base + "/metrics"); err != nil {
			t.Fatal(err)
		}
		scraped = fmt.Sprintf("%v succeeded, %v running, %v waiting", sumOf(fams, "spindle_tasks_ended_total", "succeeded"),
			sumOf(fams, "spindle_tasks", "running"), sumOf(fams, "spindle_tasks", "waiting"))
		return api == "0 succeeded, 1 running, 1 waiting"
	})
	if scraped != api {
		t.Errorf("/metrics counts %s, /api/v1/session %s", scraped, api)
	}
	for _, c := range []struct {
		name string
		ok   func(float64) bool
	}{
		{"spindle_containers_asked_total", func(v float64) bool { return v >= 1 }},
		{"spindle_containers_allocated_total", func(v float64) bool { return v >= 1 }},
		{"spindle_allocate_duration_seconds", func(v float64) bool { return v >= 1 }},
		{"spindle_gpus_held", func(v float64) bool { return v == 0 }},
	} {
		if v := sumOf(fams, c.name, ""); !c.ok(v) {
			t.Errorf("%s = %v", c.name, v)
		}
	}
	if v := sumOf(fams, "spindle_executors", "active"); v != 1 {
		t.Errorf("spindle_executors{state=active} = %v, want 1", v)
	}
}

// scrapeMetrics reads url as Prometheus does (with a local UI's token,
// authorize).
func scrapeMetrics(url string) (map[string]*dto.MetricFamily, error) {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return nil, err
	}
	authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return nil, fmt.Errorf("GET %s: %s\n%s", url, resp.Status, b)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s does not parse: %w", url, err)
	}
	return fams, nil
}

// sumOf sums family name's samples whose state label is state ("": all);
// a histogram's are its counts.
func sumOf(fams map[string]*dto.MetricFamily, name, state string) float64 {
	sum := 0.0
	for _, m := range fams[name].GetMetric() {
		if state != "" && !hasLabel(m, "state", state) {
			continue
		}
		sum += m.GetGauge().GetValue() + m.GetCounter().GetValue() + float64(m.GetHistogram().GetSampleCount())
	}
	return sum
}

func hasLabel(m *dto.Metric, name, value string) bool {
	for _, l := range m.GetLabel() {
		if l.GetName() == name && l.GetValue() == value {
			return true
		}
	}
	return false
}
