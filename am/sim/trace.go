package sim

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// StageRow is one stage of a trace.
type StageRow struct {
	Line    int
	SubmitS float64
	Job     string
	Stage   string
	Tasks   int
	TaskS   float64
	CPUs    int
	GPUs    float64
	Pool    string
	After   []string
}

// TraceJob is a job assembled from its rows, submitted at its first row's
// time.
type TraceJob struct {
	Name    string
	SubmitS float64
	Pool    string
	Stages  []StageRow
}

var columns = []string{"submit_s", "job", "stage", "tasks", "task_s", "cpus", "gpus", "pool", "after"}

const requiredColumns = 7

// Bounds on a trace, generous for real ones. Reading stops at the first
// passed, with an error naming where.
const (
	// maxRowBytes bounds a row (a line, less its newline) and
	// maxTraceBytes the whole input, so that reading takes bounded memory
	// and time whatever comes in (/dev/zero, an endless pipe).
	maxRowBytes   = 64 << 10
	maxTraceBytes = 256 << 20
	// maxTraceTasks bounds a trace's total tasks so a typo cannot ask for
	// a simulation that never ends.
	maxTraceTasks = 10_000_000
	// maxSubmitS (10 years) bounds submit_s, maxTaskS (a year) task_s,
	// and maxTraceWorkS (250 years) the trace's work: tasks × task_s over
	// every row, what one slot would take to run every task in turn. Each
	// time then converts to a time.Duration (292 years of nanoseconds)
	// exactly, and even one slot running the whole trace ends inside its
	// range; the engine's horizon (MaxDuration) bounds the rest, so no
	// time wraps into a negative one.
	maxSubmitS    = 10 * 365 * 24 * 3600
	maxTaskS      = 365 * 24 * 3600
	maxTraceWorkS = 250 * 365 * 24 * 3600
)

// ParseTrace reads a trace. Any bad row is an error naming its line and
// column, and no trace is returned.
func ParseTrace(r io.Reader, name string) ([]TraceJob, error) {
	cr := csv.NewReader(newBoundedTrace(r))
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	width, err := readHeader(cr, name)
	if err != nil {
		return nil, err
	}
	b := traceBuilder{name: name, byName: map[string]*TraceJob{}, stageLines: map[[2]string]int{}}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, traceReadError(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if len(rec) != width {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d as the header has", name, line, len(rec), width)
		}
		row, err := parseRow(cr, rec, line, name)
		if err != nil {
			return nil, err
		}
		if err := b.add(cr, row); err != nil {
			return nil, err
		}
	}
	return b.jobsInSubmitOrder()
}

// traceReadError names where the CSV reader, or the bounds on its input,
// stopped reading.
func traceReadError(name string, err error) error {
	var le *traceLimitError
	var pe *csv.ParseError
	switch {
	case errors.As(err, &le):
		return fmt.Errorf("%s:%d: %s", name, le.line, le.msg)
	case errors.As(err, &pe):
		return fmt.Errorf("%s:%d:%d: %v", name, pe.Line, pe.Column, pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// readHeader reads and checks the header row, and returns its width: the
// number of fields every row must have.
func readHeader(cr *csv.Reader, name string) (int, error) {
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return 0, fmt.Errorf("%s: empty trace: want the header %s", name, strings.Join(columns[:requiredColumns], ","))
		}
		return 0, traceReadError(name, err)
	}
	for i, h := range header {
		h = strings.TrimSpace(h)
		if i >= len(columns) || h != columns[i] {
			return 0, fmt.Errorf("%s:1:%d: header column %q: want %s[,pool][,after]", name, i+1, h, strings.Join(columns[:requiredColumns], ","))
		}
	}
	width := len(header) // the record is reused: keep only its width
	if width < requiredColumns {
		return 0, fmt.Errorf("%s:1: header has %d columns, want %s[,pool][,after]", name, width, strings.Join(columns[:requiredColumns], ","))
	}
	return width, nil
}

// traceBuilder assembles jobs from a trace's rows, in the order read,
// holding the trace to its bounds and each job's rows to one another.
type traceBuilder struct {
	name       string
	jobs       []*TraceJob
	byName     map[string]*TraceJob
	stageLines map[[2]string]int // (job, stage) -> its line
	tasks      int
	work       float64
}

// add adds one row, the one cr has just read, to its job.
func (b *traceBuilder) add(cr *csv.Reader, row StageRow) error {
	name, line := b.name, row.Line
	b.tasks += row.Tasks
	if b.tasks > maxTraceTasks {
		return fmt.Errorf("%s:%d: the trace has more than %d tasks", name, line, maxTraceTasks)
	}
	b.work += float64(row.Tasks) * row.TaskS
	if b.work > maxTraceWorkS {
		return fmt.Errorf("%s:%d: the trace's work, tasks × task_s over its rows, passes %d task-seconds (250 years)", name, line, maxTraceWorkS)
	}
	j := b.byName[row.Job]
	if j == nil {
		j = &TraceJob{Name: row.Job, SubmitS: row.SubmitS, Pool: row.Pool}
		b.byName[row.Job] = j
		b.jobs = append(b.jobs, j)
	}
	if first, dup := b.stageLines[[2]string{row.Job, row.Stage}]; dup {
		return fmt.Errorf("%s:%d:%d: job %q already has a stage %q (line %d)", name, line, col(cr, 2), row.Job, row.Stage, first)
	}
	for _, a := range row.After {
		if _, ok := b.stageLines[[2]string{row.Job, a}]; !ok {
			return fmt.Errorf("%s:%d:%d: after %q: no earlier stage of job %q has that name", name, line, col(cr, 8), a, row.Job)
		}
	}
	if row.SubmitS != j.SubmitS {
		return fmt.Errorf("%s:%d:%d: submit_s %v: job %q was submitted at %v (line %d)", name, line, col(cr, 0), row.SubmitS, row.Job, j.SubmitS, j.Stages[0].Line)
	}
	if row.Pool != j.Pool {
		return fmt.Errorf("%s:%d:%d: pool %q: job %q is in pool %q (line %d)", name, line, col(cr, 7), row.Pool, row.Job, j.Pool, j.Stages[0].Line)
	}
	b.stageLines[[2]string{row.Job, row.Stage}] = line
	j.Stages = append(j.Stages, row)
	return nil
}

// jobsInSubmitOrder returns the jobs assembled, in submission order, the
// rows' order breaking ties.
func (b *traceBuilder) jobsInSubmitOrder() ([]TraceJob, error) {
	if len(b.jobs) == 0 {
		return nil, fmt.Errorf("%s: the trace has no rows", b.name)
	}
	out := make([]TraceJob, len(b.jobs))
	for i, j := range b.jobs {
		out[i] = *j
	}
	sort.SliceStable(out, func(a, c int) bool { return out[a].SubmitS < out[c].SubmitS })
	return out, nil
}

func col(cr *csv.Reader, field int) int {
	_, c := cr.FieldPos(field)
	return c
}

func parseRow(cr *csv.Reader, rec []string, line int, name string) (StageRow, error) {
	row := StageRow{Line: line}
	bad := func(field int, format string, args ...any) error {
		return fmt.Errorf("%s:%d:%d: %s %q: %s", name, line, col(cr, field), columns[field], rec[field], fmt.Sprintf(format, args...))
	}
	num := func(field int) (float64, error) {
		v, err := strconv.ParseFloat(strings.TrimSpace(rec[field]), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, bad(field, "not a number")
		}
		if v < 0 {
			return 0, bad(field, "cannot be negative")
		}
		return v, nil
	}
	integer := func(field int) (int, error) {
		v, err := strconv.Atoi(strings.TrimSpace(rec[field]))
		if err != nil {
			return 0, bad(field, "not a whole number")
		}
		return v, nil
	}
	var err error
	if row.SubmitS, err = num(0); err != nil {
		return row, err
	}
	if row.SubmitS > maxSubmitS {
		return row, bad(0, "more than %d s (10 years)", maxSubmitS)
	}
	if row.Job = strings.TrimSpace(rec[1]); row.Job == "" {
		return row, bad(1, "a job needs a name")
	}
	if row.Stage = strings.TrimSpace(rec[2]); row.Stage == "" {
		return row, bad(2, "a stage needs a name")
	}
	if row.Tasks, err = integer(3); err != nil {
		return row, err
	}
	if row.Tasks < 1 {
		return row, bad(3, "want at least 1")
	}
	if row.TaskS, err = num(4); err != nil {
		return row, err
	}
	if row.TaskS <= 0 {
		return row, bad(4, "a task takes some time")
	}
	if row.TaskS > maxTaskS {
		return row, bad(4, "more than %d s (a year)", maxTaskS)
	}
	if row.CPUs, err = integer(5); err != nil {
		return row, err
	}
	if row.CPUs < 1 {
		return row, bad(5, "want at least 1")
	}
	if row.GPUs, err = num(6); err != nil {
		return row, err
	}
	if len(rec) > 7 {
		row.Pool = strings.TrimSpace(rec[7])
	}
	if len(rec) > 8 && strings.TrimSpace(rec[8]) != "" {
		for _, a := range strings.Split(rec[8], ";") {
			if a = strings.TrimSpace(a); a == "" {
				return row, bad(8, "an empty stage name")
			}
			row.After = append(row.After, a)
		}
	}
	return row, nil
}

// ScaleTrace returns jobs run scale times faster: every submit_s and
// task_s divided by scale (above 0). The dynamic allocation timeouts and
// the cluster's delays do not scale, so a scaled trace is a workload of
// its own: `spindle sim --time-scale` and `spindle replay --time-scale`
// scale it the same way, to compare the two.
func ScaleTrace(jobs []TraceJob, scale float64) ([]TraceJob, error) {
	if math.IsNaN(scale) || math.IsInf(scale, 0) || scale <= 0 {
		return nil, fmt.Errorf("time scale %v: want a number above 0 (2 runs the trace twice as fast)", scale)
	}
	out := make([]TraceJob, len(jobs))
	for i, j := range jobs {
		j.SubmitS /= scale
		stages := make([]StageRow, len(j.Stages))
		for k, st := range j.Stages {
			st.SubmitS /= scale
			st.TaskS /= scale
			stages[k] = st
		}
		j.Stages = stages
		out[i] = j
	}
	return out, nil
}
