package am_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/am/metrics"
	"github.com/spindle-yarn/spindle/am/webui"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// The tracking handler's /metrics parses as Prometheus parses it, and
// its task counts per pool are the REST API's: while a job runs, after
// one succeeded, and after one was cancelled and its attempt killed (in
// pool adhoc, configured: a pool made for the job would go with it,
// TestAForgottenPoolLeavesTheMetrics).
func TestMetricsCountTasksAsTheRESTAPIDoes(t *testing.T) {
	store := history.NewStore(history.Limits{})
	d := startSession(t, amtest.WithObservation(am.Observation{Store: store, Metrics: metrics.New(), App: history.AppStarted{ID: "local-session"}}),
		amtest.WithCore(func(c *core.Config) {
			c.Scheduler.Pools = []scheduler.PoolConfig{{Name: "adhoc", Mode: scheduler.FIFO, Weight: 1}}
		}))
	h := d.TrackingPage()
	c := d.Client()
	c.SubmitFollow(t, "name: quick\nstages:\n  - {name: s, tasks: 3, command: [\"true\"]}\n")
	c.Submit(t, "name: long\npool: adhoc\nstages:\n  - {name: s, tasks: 3, command: [\"sleep\", \"60\"]}\n")
	// The executor's 2 cores run two tasks of long, the third waits;
	// quick's 3 succeeded.
	compareAt(t, d, store, h, "adhoc: 0 succeeded, 2 running, 1 waiting, 0 failed, 0 killed; default: 3 succeeded, 0 running, 0 waiting, 0 failed, 0 killed")

	c.Cancel(t, 1, "not needed")
	compareAt(t, d, store, h, "adhoc: 0 succeeded, 0 running, 0 waiting, 0 failed, 2 killed; default: 3 succeeded, 0 running, 0 waiting, 0 failed, 0 killed")
}

// compareAt waits for the turn at which the history's counts per pool
// read want, then checks that /api/v1/jobs' read the same, and /metrics'
// as well.
func compareAt(t *testing.T, d *amtest.Driver, store *history.Store, h http.Handler, want string) {
	t.Helper()
	d.Await(t, "the history's counts "+want, func(am.Turn) bool { return poolCounts(store.Jobs(time.Now())) == want })
	var jobs []webui.Job
	if err := json.Unmarshal(get(t, h, "/api/v1/jobs").Body.Bytes(), &jobs); err != nil {
		t.Fatal(err)
	}
	views := make([]history.JobView, 0, len(jobs))
	for _, j := range jobs {
		views = append(views, j.JobView)
	}
	if api := poolCounts(views); api != want {
		t.Fatalf("/api/v1/jobs counts %q, want %q", api, want)
	}
	if got := metricsCounts(t, h); got != want {
		t.Errorf("/metrics counts %q, /api/v1/jobs %q", got, want)
	}
}

// countsFormat is a pool's counts.
const countsFormat = "%s: %v succeeded, %v running, %v waiting, %v failed, %v killed"

func get(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s = %d %s", path, rec.Code, rec.Body)
	}
	return rec
}

// poolCounts are jobs' task counts summed per pool, pools in order of
// name.
func poolCounts(jobs []history.JobView) string {
	pools := map[string]*history.Counts{}
	for _, j := range jobs {
		if pools[j.Pool] == nil {
			pools[j.Pool] = &history.Counts{}
		}
		c := pools[j.Pool]
		c.Succeeded += j.Succeeded
		c.Running += j.Running
		c.Waiting += j.Waiting
		c.FailedAttempts += j.FailedAttempts
		c.KilledAttempts += j.KilledAttempts
	}
	var lines []string
	for _, p := range slices.Sorted(maps.Keys(pools)) {
		c := pools[p]
		lines = append(lines, fmt.Sprintf(countsFormat, p, c.Succeeded, c.Running, c.Waiting, c.FailedAttempts, c.KilledAttempts))
	}
	return strings.Join(lines, "; ")
}

// metricsCounts are /metrics' task counts per pool, as poolCounts.
func metricsCounts(t *testing.T, h http.Handler) string {
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(get(t, h, "/metrics").Body)
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	pools := map[string]map[string]float64{} // pool, family/state
	for _, name := range []string{"spindle_tasks", "spindle_tasks_ended_total"} {
		for _, m := range fams[name].GetMetric() {
			l := labels(m)
			if pools[l["pool"]] == nil {
				pools[l["pool"]] = map[string]float64{}
			}
			pools[l["pool"]][name+"/"+l["state"]] = m.GetGauge().GetValue() + m.GetCounter().GetValue()
		}
	}
	var lines []string
	for _, p := range slices.Sorted(maps.Keys(pools)) {
		c := pools[p]
		lines = append(lines, fmt.Sprintf(countsFormat, p, c["spindle_tasks_ended_total/succeeded"], c["spindle_tasks/running"],
			c["spindle_tasks/waiting"], c["spindle_tasks_ended_total/failed"], c["spindle_tasks_ended_total/killed"]))
	}
	return strings.Join(lines, "; ")
}

func labels(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.GetLabel() {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

// The containers counted are what the RM was sent and answered: asks
// under new allocation request ids, releases, containers allocated, and
// one round trip per allocate.
func TestMetricsCountContainersAsTheRMSawThem(t *testing.T) {
	f := &amtest.FakeRM{Respond: func(n int, req *hadoopyarn.AllocateRequestProto) *hadoopyarn.AllocateResponseProto {
		resp := &hadoopyarn.AllocateResponseProto{}
		if n == 0 { // 2 of the 3 asked: their launches fail (no NodeManager), so they go back
			for i := range 2 {
				resp.AllocatedContainers = append(resp.AllocatedContainers, &hadoopyarn.ContainerProto{Id: amtest.ContainerID(int64(i + 2)),
					NodeId: &hadoopyarn.NodeIdProto{Host: proto.String("n1"), Port: proto.Int32(1)}, AllocationRequestId: proto.Int64(req.GetAsk()[0].GetAllocationRequestId())})
			}
		}
		return resp
	}}
	m := metrics.New()
	job, err := jobspec.Short("j", 1, []string{"true"}, jobspec.Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	d := amtest.Start(t, job, amtest.WithYARN(f), amtest.WithObservation(am.Observation{Metrics: m}))
	h := m.Handler()
	// At a turn with no allocate on its way (the RM's count and the
	// metrics' agree then), once the failed launches' containers went
	// back.
	var rmSaw string
	d.Await(t, "the failed launches' containers released, and no allocate on its way", func(am.Turn) bool {
		reqs := f.Requests()
		asked, released, newest := 0, 0, int64(0)
		for _, r := range reqs {
			for _, a := range r.GetAsk() {
				if a.GetAllocationRequestId() > newest {
					newest, asked = a.GetAllocationRequestId(), asked+int(a.GetNumContainers())
				}
			}
			released += len(r.GetRelease())
		}
		rmSaw = fmt.Sprintf("asked %d, allocated 2, released %d, %d allocates", asked, released, len(reqs))
		return released == 2 && containerCounts(h) == rmSaw
	})
	d.Cancel(errors.New("interrupted"))
	d.Wait(t)
	// Metrics alone observe: the job's end is counted.
	if body := get(t, h, "/metrics").Body.String(); !strings.Contains(body, `spindle_jobs_ended_total{pool="default",state="cancelled"} 1`) {
		t.Errorf("the cancelled job is not counted:\n%s", body)
	}
	if reqs := f.Requests(); reqs[0].GetAsk()[0].GetNumContainers() != 3 {
		t.Errorf("the first allocate asks %v, want 3 containers", reqs[0].GetAsk())
	}
}

// containerCounts are /metrics' counts of containers and allocates, as
// the RM saw them; it runs in the loop, so it says what went wrong rather
// than failing the test.
func containerCounts(h http.Handler) string {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(rec.Body)
	if err != nil {
		return fmt.Sprintf("/metrics does not parse: %v", err)
	}
	one := func(name string) float64 {
		for _, m := range fams[name].GetMetric() {
			return m.GetCounter().GetValue() + float64(m.GetHistogram().GetSampleCount())
		}
		return -1
	}
	return fmt.Sprintf("asked %v, allocated %v, released %v, %v allocates", one("spindle_containers_asked_total"), one("spindle_containers_allocated_total"),
		one("spindle_containers_released_total"), one("spindle_allocate_duration_seconds"))
}
