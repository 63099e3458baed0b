package sim

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// FuzzParseTrace checks that no input panics, that every error names the
// file, and that what parses keeps the documented bounds and shape: rows
// of at most maxRowBytes, submit_s, task_s and the work within theirs, at
// most maxTraceTasks tasks, stages named once per job, after naming
// earlier stages, jobs in submission order. Seeds are in
// testdata/fuzz/FuzzParseTrace.
func FuzzParseTrace(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		jobs, err := ParseTrace(bytes.NewReader(data), "fuzz.csv")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv:") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			// A row may span lines inside quotes, but no line is longer
			// than its row.
			if len(line) > maxRowBytes {
				t.Fatalf("accepted a line of %d bytes", len(line))
			}
		}
		if len(jobs) == 0 {
			t.Fatal("accepted a trace without jobs")
		}
		tasks, work := 0, 0.0
		names := map[string]bool{}
		for i, j := range jobs {
			switch {
			case names[j.Name]:
				t.Fatalf("job %q twice", j.Name)
			case j.Name == "" || len(j.Stages) == 0:
				t.Fatalf("job %+v", j)
			case !(j.SubmitS >= 0 && j.SubmitS <= maxSubmitS):
				t.Fatalf("job %q submitted at %v", j.Name, j.SubmitS)
			case i > 0 && j.SubmitS < jobs[i-1].SubmitS:
				t.Fatalf("job %q at %v after one at %v", j.Name, j.SubmitS, jobs[i-1].SubmitS)
			}
			names[j.Name] = true
			var stages []string
			for _, s := range j.Stages {
				switch {
				case s.Stage == "" || slices.Contains(stages, s.Stage):
					t.Fatalf("job %q: stage %q", j.Name, s.Stage)
				case s.Tasks < 1 || s.CPUs < 1 || s.GPUs < 0:
					t.Fatalf("job %q stage %q: %+v", j.Name, s.Stage, s)
				case !(s.TaskS > 0 && s.TaskS <= maxTaskS):
					t.Fatalf("job %q stage %q: task_s %v", j.Name, s.Stage, s.TaskS)
				case s.SubmitS != j.SubmitS || s.Pool != j.Pool:
					t.Fatalf("job %q stage %q: submitted %v in %q, the job %v in %q", j.Name, s.Stage, s.SubmitS, s.Pool, j.SubmitS, j.Pool)
				}
				for _, a := range s.After {
					if !slices.Contains(stages, a) {
						t.Fatalf("job %q stage %q after %q, not an earlier stage", j.Name, s.Stage, a)
					}
				}
				stages = append(stages, s.Stage)
				tasks += s.Tasks
				work += float64(s.Tasks) * s.TaskS
			}
		}
		if tasks > maxTraceTasks || work > maxTraceWorkS {
			t.Fatalf("%d tasks, %v task-seconds of work", tasks, work)
		}
	})
}
