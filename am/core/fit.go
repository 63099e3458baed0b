package core

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// fitProfiles gives each stage of spec the first profile whose executors
// can hold one of its tasks. A stage that fits none refuses the job: a
// session's profiles are set when it starts, and a task no executor can
// hold would wait for good.
func (c *Core) fitProfiles(spec *jobspec.Job) ([]scheduler.ProfileID, error) {
	out := make([]scheduler.ProfileID, len(spec.Stages))
	for i, st := range spec.Stages {
		found := false
		for _, p := range c.cfg.Profiles {
			if fits(st, c.cfg.TaskAccels, p) && c.labelFits(st, p) {
				out[i], found = p.ID, true
				break
			}
		}
		if !found {
			var have []string
			for _, p := range c.cfg.Profiles {
				have = append(have, fmt.Sprintf("profile %d: %d cores, %d GPUs, %d MiB%s", p.ID, p.Cores, p.GPUs, p.MemoryMB, accelsText(p.Accels)))
			}
			return nil, fmt.Errorf("stage %q: a task needs %s, which no executor of this application can hold (%s)",
				st.Name, needs(st)+accelsText(c.cfg.TaskAccels), strings.Join(have, "; "))
		}
	}
	return out, nil
}

// fits says whether an executor of p can hold one task of st, which
// asks accels besides.
func fits(st jobspec.Stage, accels scheduler.Accelerators, p scheduler.Profile) bool {
	return max(st.CPUs, 1) <= p.Cores && st.GPUs <= float64(p.GPUs) && (st.MemoryMB == 0 || st.MemoryMB <= p.MemoryMB) && accels.Within(p.Accels)
}

// needs says what one task of st asks for.
func needs(st jobspec.Stage) string {
	s := fmt.Sprintf("%d cpus, %s GPUs", max(st.CPUs, 1), strconv.FormatFloat(st.GPUs, 'g', -1, 64))
	if st.MemoryMB > 0 {
		s += fmt.Sprintf(", %d MiB", st.MemoryMB)
	}
	if st.NodeLabel != "" {
		s += ", on nodes labelled " + st.NodeLabel
	}
	return s
}
