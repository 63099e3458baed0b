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

// maxTraceTasks bounds a trace's total tasks so a typo cannot ask for a
// simulation that never ends.
const maxTraceTasks = 10_000_000

// ParseTrace reads a trace. Any bad row is an error naming its line and
// column, and no trace is returned.
func ParseTrace(r io.Reader, name string) ([]TraceJob, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty trace: want the header %s", name, strings.Join(columns[:requiredColumns], ","))
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i, h := range header {
		h = strings.TrimSpace(h)
		if i >= len(columns) || h != columns[i] {
			return nil, fmt.Errorf("%s:1:%d: header column %q: want %s[,pool][,after]", name, i+1, h, strings.Join(columns[:requiredColumns], ","))
		}
	}
	if len(header) < requiredColumns {
		return nil, fmt.Errorf("%s:1: header has %d columns, want %s[,pool][,after]", name, len(header), strings.Join(columns[:requiredColumns], ","))
	}

	var jobs []*TraceJob
	byName := map[string]*TraceJob{}
	total := 0
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("%s:%d:%d: %v", name, pe.Line, pe.Column, pe.Err)
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if len(rec) != len(header) {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d as the header has", name, line, len(rec), len(header))
		}
		row, err := parseRow(cr, rec, line, name)
		if err != nil {
			return nil, err
		}
		total += row.Tasks
		if total > maxTraceTasks {
			return nil, fmt.Errorf("%s:%d: the trace has more than %d tasks", name, line, maxTraceTasks)
		}
		j := byName[row.Job]
		if j == nil {
			j = &TraceJob{Name: row.Job, SubmitS: row.SubmitS, Pool: row.Pool}
			byName[row.Job] = j
			jobs = append(jobs, j)
		}
		for _, s := range j.Stages {
			if s.Stage == row.Stage {
				return nil, fmt.Errorf("%s:%d:%d: job %q already has a stage %q (line %d)", name, line, col(cr, 2), row.Job, row.Stage, s.Line)
			}
		}
		for _, a := range row.After {
			if !hasStage(j, a) {
				return nil, fmt.Errorf("%s:%d:%d: after %q: no earlier stage of job %q has that name", name, line, col(cr, 8), a, row.Job)
			}
		}
		if row.SubmitS != j.SubmitS {
			return nil, fmt.Errorf("%s:%d:%d: submit_s %v: job %q was submitted at %v (line %d)", name, line, col(cr, 0), row.SubmitS, row.Job, j.SubmitS, j.Stages[0].Line)
		}
		if row.Pool != j.Pool {
			return nil, fmt.Errorf("%s:%d:%d: pool %q: job %q is in pool %q (line %d)", name, line, col(cr, 7), row.Pool, row.Job, j.Pool, j.Stages[0].Line)
		}
		j.Stages = append(j.Stages, row)
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("%s: the trace has no rows", name)
	}
	out := make([]TraceJob, len(jobs))
	for i, j := range jobs {
		out[i] = *j
	}
	// Submission order; rows order ties.
	sort.SliceStable(out, func(a, b int) bool { return out[a].SubmitS < out[b].SubmitS })
	return out, nil
}

func hasStage(j *TraceJob, name string) bool {
	for _, s := range j.Stages {
		if s.Stage == name {
			return true
		}
	}
	return false
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
