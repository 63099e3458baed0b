package jobspec

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/scheduler"
)

// FuzzParse checks that no input panics Parse; that every line of an
// error names the source; and that a spec Parse accepts keeps the
// invariants the rest of Spindle relies on, converts for the scheduler,
// expands for its first task without panicking, and reads back the same
// when written out as JSON (MarshalSpec). Its seeds are testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	const source = "fuzz.yaml"
	f.Fuzz(func(t *testing.T, data []byte) {
		job, err := Parse(data, source, Defaults{})
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, source+":") {
					t.Errorf("error line %q does not start with %s:", line, source)
				}
			}
			return
		}
		checkInvariants(t, job)
		if _, err := job.SchedulerSpec(0); err != nil && !hasInput(job) {
			t.Errorf("SchedulerSpec: %v", err)
		}
		for i := range job.Stages {
			s := &job.Stages[i]
			_, _ = s.TaskCommand(job.Name, 0, 0) // a later stage may fail on a text an earlier one checked
			_, _ = s.TaskEnv(job.Name, 0, 0)
		}

		asJSON, err := job.MarshalSpec()
		if err != nil {
			t.Fatal(err)
		}
		if len(asJSON) > maxSpecBytes {
			return
		}
		again, err := Parse(asJSON, source, Defaults{})
		if err != nil {
			t.Fatalf("written as %s, read back: %v", asJSON, err)
		}
		for _, j := range []*Job{job, again} {
			for i := range j.Stages {
				j.Stages[i].Line = 0
			}
		}
		if !reflect.DeepEqual(job, again) {
			t.Errorf("read back from %s as\n%+v\nwant\n%+v", asJSON, again, job)
		}
	})
}

func checkInvariants(t *testing.T, job *Job) {
	t.Helper()
	if job.Name == "" || job.Pool == "" || len(job.Stages) == 0 {
		t.Fatalf("job %+v: no name, pool or stages", job)
	}
	names := map[string]bool{}
	tasks := 0
	for _, s := range job.Stages {
		if s.Name == "" || names[s.Name] {
			t.Errorf("stage name %q empty or repeated", s.Name)
		}
		names[s.Name] = true
		tasks += s.Tasks
		if len(s.Input.Paths) > 0 {
			checkInput(t, &s)
		}
		if s.Tasks < 1 && len(s.Input.Paths) == 0 || s.CPUs < 1 || s.MaxAttempts < 0 || s.MaxAttempts > scheduler.MaxAttemptsLimit || s.MemoryMB < 0 || s.GPUs < 0 {
			t.Errorf("stage %+v: a count out of range", s)
		}
		if len(s.Accels) > scheduler.MaxAccelerators {
			t.Errorf("stage %+v: more accelerators than an executor may have", s)
		}
		for name, n := range s.Accels {
			if n < 0 || name == "" || name == "gpus" {
				t.Errorf("stage %+v: accelerator %q %d", s, name, n)
			}
		}
		if p := s.Placement; p.MaxPerNode < 0 || p.Affinity != "" && (p.MaxPerNode != 0 || p.Affinity != scheduler.Spread && p.Affinity != scheduler.Pack) {
			t.Errorf("stage %+v: placement out of range", s)
		}
		if (len(s.Command) > 0) == (s.Builtin != "") {
			t.Errorf("stage %+v: not exactly one of command and builtin", s)
		}
	}
	if tasks > maxTasks {
		t.Errorf("%d tasks in all", tasks)
	}
	for _, s := range job.Stages {
		for _, dep := range s.After {
			if !names[dep] || dep == s.Name {
				t.Errorf("stage %s after %q", s.Name, dep)
			}
		}
	}
}

func hasInput(job *Job) bool {
	for _, s := range job.Stages {
		if len(s.Input.Paths) > 0 {
			return true
		}
	}
	return false
}

// checkInput holds a stage's input to what the splitter and the split
// file take: its task count left to the listing, a mode Plan accepts,
// paths with no tab or line break, and no hand-written hosts.
func checkInput(t *testing.T, s *Stage) {
	t.Helper()
	if s.Tasks != 0 || len(s.PreferredHosts) > 0 {
		t.Errorf("stage %+v: an input beside tasks or preferredHosts", s)
	}
	if s.Input.Split.Kind == "" {
		t.Errorf("stage %+v: an input with no split mode", s)
	}
	if err := s.Input.Split.Check(); err != nil {
		t.Errorf("stage %+v: %v", s, err)
	}
	for _, p := range s.Input.Paths {
		if p == "" || strings.ContainsAny(p, "\t\n\r") {
			t.Errorf("stage %+v: input path %q", s, p)
		}
	}
}
