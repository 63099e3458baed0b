package deploy

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/scheduler"
)

// checkStagesFit refuses, before anything starts, a job with a stage whose
// tasks its executors can never hold, naming the setting to raise: the
// scheduler would refuse it only once executors run, and in terms of
// profiles. A stage's memory counts here though the scheduler does not
// place by it, so that it is not silently ignored. On YARN every stage
// the executors cannot hold gets executors of its own shape (a stage
// shape in coarse mode, a task's size in fine mode), which the submit
// checks against the cluster's maximum allocation: everything fits.
func checkStagesFit(conf *config.Config, job *jobspec.Job, m config.Master) error {
	if m.Yarn {
		return nil
	}
	p, err := settings.ExecutorProfile(conf)
	if err != nil {
		return err
	}
	var errs []error
	for _, st := range job.Stages {
		where := fmt.Sprintf("%s: stage %q", job.Source, st.Name)
		if st.Line > 0 {
			where = fmt.Sprintf("%s:%d: stage %q", job.Source, st.Line, st.Name)
		}
		for _, misfit := range stageMisfits(st, p, m) {
			errs = append(errs, fmt.Errorf("%s: %s", where, misfit))
		}
	}
	return errors.Join(errs...)
}

// stageMisfits says what of one task of st an executor of p cannot hold.
func stageMisfits(st jobspec.Stage, p scheduler.Profile, m config.Master) []string {
	var out []string
	gpus := strconv.FormatFloat(st.GPUs, 'g', -1, 64)
	switch {
	case st.GPUs > 0 && p.GPUs == 0:
		hint := "give them some with --executor-gpus N"
		if !m.Yarn {
			hint += "; local mode shares out the GPUs spindle.worker.resource.gpu.addresses lists (fake ones will do: --conf spindle.worker.resource.gpu.addresses=0,1)"
		}
		out = append(out, fmt.Sprintf("gpus %s per task, but executors have none (spindle.executor.resource.gpu.amount): %s", gpus, hint))
	case st.GPUs > float64(p.GPUs):
		out = append(out, fmt.Sprintf("gpus %s per task, but executors have %d (spindle.executor.resource.gpu.amount): raise it with --executor-gpus %s", gpus, p.GPUs, gpus))
	}
	if st.CPUs > p.Cores {
		out = append(out, fmt.Sprintf("cpus %d per task, but executors have %d (spindle.executor.cores): raise it with --executor-cores %d", st.CPUs, p.Cores, st.CPUs))
	}
	if st.MemoryMB > p.MemoryMB {
		out = append(out, fmt.Sprintf("memory %s per task, but executors have %s (spindle.executor.memory): raise it with --executor-memory %s",
			sizeMiB(st.MemoryMB), sizeMiB(p.MemoryMB), sizeMiB(st.MemoryMB)))
	}
	for _, name := range slices.Sorted(maps.Keys(st.Accels)) {
		if want, have := st.Accels[name], p.Accels.Amount(name); want > have {
			out = append(out, fmt.Sprintf("resources.%s %d per task, but executors have %d (spindle.executor.resource.%s.amount): raise it with --conf spindle.executor.resource.%s.amount=%d",
				name, want, have, name, name, want))
		}
	}
	return out
}

// sizeMiB writes a size as settings take it: whole GiB as g, else m.
func sizeMiB(mib int64) string {
	if mib%1024 == 0 {
		return strconv.FormatInt(mib/1024, 10) + "g"
	}
	return strconv.FormatInt(mib, 10) + "m"
}
