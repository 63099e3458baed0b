package core

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// fitProfiles gives each stage of spec the first profile whose executors
// can hold one of its tasks. A stage that fits none gets, in coarse mode
// on YARN (a session's AM), a new profile of its shape (StageShape),
// asked for on demand as any other, up to spindle.session.maxExecutorProfiles
// and the cluster's maximum allocation; elsewhere — local mode's executors
// are fixed, fine mode's profiles are the session's from the start — it
// refuses the job: a task no executor can hold would wait for good.
// Nothing is added unless every stage fits.
func (c *Core) fitProfiles(spec *jobspec.Job) ([]scheduler.ProfileID, error) {
	out := make([]scheduler.ProfileID, len(spec.Stages))
	profiles := c.cfg.Profiles
	for i, st := range spec.Stages {
		accels, err := st.TaskAccels(c.cfg.TaskAccels)
		if err != nil {
			return nil, fmt.Errorf("stage %q: %w", st.Name, err)
		}
		found := false
		for _, p := range profiles {
			if fits(st, accels, p) && c.labelFits(st, p) {
				out[i], found = p.ID, true
				break
			}
		}
		if found {
			continue
		}
		if !c.shapesOnDemand() {
			var have []string
			for _, p := range profiles {
				have = append(have, fmt.Sprintf("profile %d: %d cores, %d GPUs, %d MiB%s", p.ID, p.Cores, p.GPUs, p.MemoryMB, accelsText(p.Accels)))
			}
			return nil, fmt.Errorf("stage %q: a task needs %s, which no executor of this application can hold (%s)",
				st.Name, needs(st)+accelsText(accels), strings.Join(have, "; "))
		}
		shape := c.onDemandShape(profiles[0], st, accels)
		if err := c.allowShape(st, shape, len(profiles)+1); err != nil {
			return nil, err
		}
		profiles, out[i] = WithShape(profiles, shape)
	}
	for _, p := range profiles[len(c.cfg.Profiles):] {
		if err := c.addProfile(p); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// onDemandShape is the profile a session adds for stage st, whose tasks
// ask accels besides GPUs: the default's shape with the stage's node
// label and placement when the default can hold its tasks (executors of
// their own, as stage_labels.go gives a job's), else its StageShape.
func (c *Core) onDemandShape(def scheduler.Profile, st jobspec.Stage, accels scheduler.Accelerators) scheduler.Profile {
	if !fits(st, accels, def) {
		return StageShape(def, st)
	}
	def.NodeLabel, def.Placement = st.NodeLabel, st.Placement
	return def
}

// shapesOnDemand says whether a stage no profile holds gets one of its
// own: in coarse mode, where the core keeps YARN containers.
func (c *Core) shapesOnDemand() bool { return c.yarn != nil && !c.cfg.OneTaskPerExecutor }

// allowShape refuses the new profile shape, the application's nth, for
// stage st when it passes the session's bound on profiles or what one
// container of the cluster may have.
func (c *Core) allowShape(st jobspec.Stage, shape scheduler.Profile, n int) error {
	if most := c.cfg.Limits.MaxExecutorProfiles; most > 0 && n > most {
		return fmt.Errorf("stage %q: a task needs %s, which no executor profile of this session holds, and a new one would be its profile %d, more than spindle.session.maxExecutorProfiles (%d)",
			st.Name, needs(st), n, most)
	}
	// Memory and vcores unknown (0) are not checked; GPUs are: a node's
	// most is what GPU indices are given out from, so no container of
	// more could ever be started.
	k := c.yarn.cfg
	for _, d := range []struct {
		what      string
		need, max int64
	}{{"MiB of memory", shape.MemoryMB, k.MaxMemoryMB}, {"vcores", int64(shape.Cores), int64(k.MaxCores)}, {"GPUs", int64(shape.GPUs), int64(k.MaxGPUsPerNode)}} {
		if (d.max > 0 || d.what == "GPUs") && d.need > d.max {
			return fmt.Errorf("stage %q: its executors would need %d %s, more than the cluster's maximum allocation (%d)", st.Name, d.need, d.what, d.max)
		}
	}
	return c.allowAccels(st, shape)
}

// allowAccels refuses the accelerators stage st names itself where its
// new profile shape could never get them: one the application has no
// YARN resource type for (a session knows those of its executors'
// accelerators alone), or more than a node has, which no container
// could hold.
func (c *Core) allowAccels(st jobspec.Stage, shape scheduler.Profile) error {
	for _, name := range slices.Sorted(maps.Keys(st.Accels)) {
		need := shape.Accels.Amount(name)
		most, known := c.yarn.cfg.MaxAccelsPerNode[name]
		switch {
		case need == 0:
		case !known:
			return fmt.Errorf("stage %q: resources.%s: this session's executors have no %s, so it cannot ask YARN for any; start the session with spindle.executor.resource.%s.amount",
				st.Name, name, name, name)
		case need > most:
			return fmt.Errorf("stage %q: its executors would need %d %s, more than a node of the cluster has (%d)", st.Name, need, name, most)
		}
	}
	return nil
}

// addProfile adds a profile a session's job needs: the scheduler places
// on it, and its target starts at zero, to rise with its stages' tasks.
func (c *Core) addProfile(p scheduler.Profile) error {
	if err := c.sched.AddProfile(p); err != nil {
		return err
	}
	c.cfg.Profiles = append(c.cfg.Profiles, p)
	c.yarn.profiles = c.cfg.Profiles
	c.yarn.targets[p.ID] = 0
	c.notice(Notice{Message: fmt.Sprintf("executor profile %d added on demand: %d cores, %d MiB, %d GPUs%s", p.ID, p.Cores, p.MemoryMB, p.GPUs, accelsText(p.Accels))})
	return nil
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
	if st.Placement.Set() {
		s += ", placed " + st.Placement.String()
	}
	return s
}
