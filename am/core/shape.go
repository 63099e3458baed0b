package core

import (
	"math"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// Stage shapes (coarse mode, Spark's stage-level resource profiles): a
// stage whose task the default executor (spindle.executor.*) can hold runs
// there, as it always has; a stage it cannot hold runs on executors of a
// shape derived from it, and stages that derive the same shape share a
// profile. Those profiles are held only while their stages need them
// (shape_targets.go).

// StageShape is the executor shape a stage the default profile def cannot
// hold runs on: def's cores and memory, each raised to what one task of
// st needs, and the GPUs of one task rounded up to whole ones — no more,
// so that a CPU-only stage's executors hold no GPU idle — and def's
// accelerators besides GPUs, but for those the stage names itself
// (resources: {fpga: 2}), of which they hold what one task asks, again
// no more. The stage's own node label and placement are its executors'.
// The one place a stage's needs become an executor's shape: a resource
// added to Profile is derived here. Its ID is def's; the caller numbers
// it.
func StageShape(def scheduler.Profile, st jobspec.Stage) scheduler.Profile {
	return scheduler.Profile{
		ID:       def.ID,
		Cores:    max(def.Cores, st.CPUs, 1),
		MemoryMB: max(def.MemoryMB, st.MemoryMB),
		GPUs:     int(math.Ceil(st.GPUs)),
		Accels:   stageAccels(def.Accels, st),
		// The stage's node label is its executors' (stage_labels.go).
		NodeLabel: st.NodeLabel,
		Placement: st.Placement,
	}
}

// stageAccels are have with the amounts st names in place of have's; a
// Stage that Parse made names few enough kinds to fit (at worst its
// own, when have's are not a task's).
func stageAccels(have scheduler.Accelerators, st jobspec.Stage) scheduler.Accelerators {
	a, err := st.TaskAccels(have)
	if err != nil {
		a, _ = st.TaskAccels(scheduler.Accelerators{})
	}
	return a
}

// StageShapes gives each of job's stages its coarse-mode profile:
// profiles[0] is def, which every stage it can hold runs on; each other
// is a StageShape, numbered on from def's ID in the order stages first
// need it. stages is nil when every stage runs on def.
func StageShapes(def scheduler.Profile, job *jobspec.Job) (profiles []scheduler.Profile, stages []scheduler.ProfileID) {
	profiles = []scheduler.Profile{def}
	stages = make([]scheduler.ProfileID, len(job.Stages))
	for i, st := range job.Stages {
		stages[i] = def.ID
		// def holds the application's tasks' accelerators: only the
		// stage's own can outgrow it.
		if !fits(st, stageAccels(scheduler.Accelerators{}, st), def) {
			profiles, stages[i] = WithShape(profiles, StageShape(def, st))
		}
	}
	if len(profiles) == 1 {
		return profiles, nil
	}
	return profiles, stages
}

// WithShape returns profiles with shape p among them, and its ID: an
// existing profile of the same shape, or p appended under the next ID.
func WithShape(profiles []scheduler.Profile, p scheduler.Profile) ([]scheduler.Profile, scheduler.ProfileID) {
	next := scheduler.ProfileID(0)
	for _, q := range profiles {
		if sameShape(p, q) {
			return profiles, q.ID
		}
		next = max(next, q.ID+1)
	}
	p.ID = next
	return append(profiles, p), p.ID
}

// sameShape says whether executors of p and q are alike (a resource
// StageShape derives is compared here too).
func sameShape(p, q scheduler.Profile) bool {
	p.ID = q.ID
	return p == q
}
