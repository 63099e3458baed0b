package sim

import (
	"fmt"
	"math"

	"github.com/spindle-yarn/spindle/scheduler"
)

// fineProfile is the executor shape of fine-grained mode
// (spindle.yarn.mode=fine) for a trace: as the AM shapes a job's executors
// after its stages' tasks, so that one task fills one and a container is
// asked for per task, here after the trace's tasks, its memory base's.
// The simulator runs one shape, so the trace's stages must share one:
// otherwise an executor would hold several tasks and retire with the
// first, which the AM never does.
func fineProfile(jobs []TraceJob, base scheduler.Profile) (scheduler.Profile, error) {
	var first *StageRow
	p := base
	for _, j := range jobs {
		for i := range j.Stages {
			st := &j.Stages[i]
			cores, gpus := max(st.CPUs, 1), int(math.Ceil(st.GPUs))
			if first == nil {
				first, p.Cores, p.GPUs = st, cores, gpus
				continue
			}
			if cores != p.Cores || gpus != p.GPUs {
				return p, fmt.Errorf("line %d: stage %q's tasks take %d cpus and %d GPUs, line %d's %d and %d: in fine mode (spindle.yarn.mode=fine) "+
					"the simulator shapes every executor after one task, so a trace's tasks must share one shape", st.Line, st.Stage, cores, gpus,
					first.Line, p.Cores, p.GPUs)
			}
		}
	}
	return p, nil
}
