package metrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Namespace prefixes every metric of Spindle's own.
const Namespace = "spindle"

// Buckets of task durations, in seconds: GPU tasks run from seconds to
// hours, and a no-op task ends in milliseconds.
var taskBuckets = []float64{0.01, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 14400}

// Buckets of the allocate's round trip, in seconds: an RM answers in
// milliseconds, and one out of reach is tried again for up to a minute.
var allocateBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60}

// Metrics is one driver's metrics. A nil *Metrics takes every call and
// does nothing: a driver without metrics pays nothing.
type Metrics struct {
	reg *prometheus.Registry

	tasks         *prometheus.GaugeVec   // state, pool
	tasksEnded    *prometheus.CounterVec // state, pool
	taskDurations *prometheus.HistogramVec
	jobs          *prometheus.GaugeVec   // state, pool
	jobsEnded     *prometheus.CounterVec // state, pool
	executors     *prometheus.GaugeVec   // state (active), profile
	removed, lost *prometheus.CounterVec // profile
	losses        *prometheus.CounterVec // blame
	gpusHeld      prometheus.Gauge
	gpusInUse     prometheus.Gauge

	asked, allocated, released prometheus.Counter
	allocateDurations          prometheus.Histogram
	gpuUse                     *gpuUse

	journalBytes                    prometheus.Gauge
	journalSegments, journalRefused prometheus.Counter

	loop loopState
}

// New is a driver's metrics, in a registry of their own with the Go
// runtime's and the process's.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry(), loop: newLoopState()}
	m.tasks = m.gaugeVec("tasks", "Tasks of running jobs by state (running: an attempt runs; waiting: neither running nor succeeded), and attempts running on after their job ended.", "state", "pool")
	m.tasksEnded = m.counterVec("tasks_ended_total", "Task attempts ended, by how.", "state", "pool")
	m.taskDurations = prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: "task_duration_seconds",
		Help: "Task attempts' durations, from launch to the status that ended them.", Buckets: taskBuckets}, []string{"pool", "state"})
	m.jobs = m.gaugeVec("jobs", "Jobs running now.", "state", "pool")
	m.jobsEnded = m.counterVec("jobs_ended_total", "Jobs ended, by how.", "state", "pool")
	m.executors = m.gaugeVec("executors", "Executors active now.", "state", "profile")
	m.removed = m.counterVec("executors_removed_total", "Executors removed: asked to go (idle, retired, given back, at the application's end).", "profile")
	m.lost = m.counterVec("executors_lost_total", "Executors lost: gone unasked.", "profile")
	m.losses = m.counterVec("executor_losses_total", "Executors lost (gone unasked), by blame: task when their running tasks were blamed, none when not.", "blame")
	m.gpusHeld = m.gauge("gpus_held", "GPUs of the active executors.")
	m.gpusInUse = m.gauge("gpus_in_use", "GPUs that running attempts use: each its stage's share, fractions summed.")
	m.asked = m.counter("containers_asked_total", "Containers asked of the ResourceManager under new asks (lowering an ask adds nothing).")
	m.allocated = m.counter("containers_allocated_total", "Containers the ResourceManager allocated.")
	m.released = m.counter("containers_released_total", "Containers released to the ResourceManager.")
	m.allocateDurations = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: Namespace, Name: "allocate_duration_seconds",
		Help: "Allocate calls' round trips to the ResourceManager.", Buckets: allocateBuckets})
	m.journalBytes = m.gauge("journal_bytes", "The journal's size as the AM's next attempt would read it: the last snapshot and the deltas after it.")
	m.journalSegments = m.counter("journal_segments_written_total", "Journal segments written.")
	m.journalRefused = m.counter("journal_segments_refused_total", "Journal segments not written for being over the size a reader takes.")
	m.gpuUse = newGPUUse()
	m.reg.MustRegister(m.taskDurations, m.allocateDurations, m.gpuUse,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, blame := range []string{BlameTask, BlameNone} {
		m.losses.WithLabelValues(blame) // present at 0 from the start
	}
	return m
}

// Handler serves the metrics in Prometheus's exposition formats.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

func (m *Metrics) gauge(name, help string) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Namespace: Namespace, Name: name, Help: help})
	m.reg.MustRegister(g)
	return g
}

func (m *Metrics) counter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help})
	m.reg.MustRegister(c)
	return c
}

func (m *Metrics) gaugeVec(name, help string, labels ...string) *prometheus.GaugeVec {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: Namespace, Name: name, Help: help}, labels)
	m.reg.MustRegister(g)
	return g
}

func (m *Metrics) counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help}, labels)
	m.reg.MustRegister(c)
	return c
}
