package scheduler

import "fmt"

// ProfileID names an executor profile.
type ProfileID int

// Profile is the shape of an executor: what each executor of the profile
// offers. Dynamic allocation asks for executors per profile; a stage's
// tasks run only on executors of the stage's profile.
type Profile struct {
	ID       ProfileID
	Cores    int
	MemoryMB int64
	GPUs     int // addresses per executor
	// Accels are the accelerators besides GPUs each executor has.
	Accels Accelerators
	// NodeLabel is the YARN node label its executors are asked with, for
	// stages that name one ("": the application's,
	// spindle.yarn.executor.nodeLabelExpression).
	NodeLabel string
	// Placement is where its executors go beside each other on YARN, for
	// stages that name their own (zero: the application's,
	// spindle.yarn.executor.placement and .maxPerNode).
	Placement Placement
}

// Placement is a stage's own placement of its executors among the
// nodes (`placement:` in its spec): spread (at most one a node), pack (all
// on one node), or at most MaxPerNode a node. The zero value asks
// nothing of its own. A fixed-size value, so that Profiles stay
// comparable.
type Placement struct {
	Affinity   Affinity
	MaxPerNode int // 0: no bound of its own
}

// Affinity is how a profile's executors stand to each other.
type Affinity string

// The affinities a stage may ask ("": none of its own).
const (
	Spread Affinity = "spread"
	Pack   Affinity = "pack"
)

// Set says whether p asks anything of its own.
func (p Placement) Set() bool { return p != Placement{} }

func (p Placement) String() string {
	switch {
	case p.Affinity != "":
		return string(p.Affinity)
	case p.MaxPerNode > 0:
		return fmt.Sprintf("maxPerNode=%d", p.MaxPerNode)
	}
	return "none"
}

// TaskRequest is what each task of a stage asks of its executor.
type TaskRequest struct {
	CPUs int
	GPU  GPURequest
	// Accels are the whole addresses of each accelerator a task takes.
	Accels Accelerators
}

// TasksPerExecutor is how many tasks asking r run at once on an executor
// of p: min(cores ÷ task cpus, GPU slots, each accelerator's slots).
func (p Profile) TasksPerExecutor(r TaskRequest) int {
	n := p.Cores / max(r.CPUs, 1)
	if s := r.GPU.slots(p.GPUs); s >= 0 {
		n = min(n, s)
	}
	for _, x := range r.Accels.List() {
		n = min(n, p.Accels.Amount(x.Name)/x.Amount)
	}
	return n
}

// check rejects a request no executor of p could ever run, naming field.
func (p Profile) check(field string, r TaskRequest) error {
	switch {
	case r.CPUs < 1:
		return fmt.Errorf("%s: cpus %d: a task needs at least 1", field, r.CPUs)
	case r.CPUs > p.Cores:
		return fmt.Errorf("%s: cpus %d: executors of profile %d have %d cores", field, r.CPUs, p.ID, p.Cores)
	case r.GPU.whole < 0 || r.GPU.fraction < 0: // WholeGPUs(-n): slots would divide by zero
		return fmt.Errorf("%s: gpus %s: cannot be negative", field, r.GPU)
	case r.GPU.whole > p.GPUs || (r.GPU.fraction > 0 && p.GPUs == 0):
		return fmt.Errorf("%s: gpus %s: executors of profile %d have %d GPUs", field, r.GPU, p.ID, p.GPUs)
	}
	if err := r.Accels.validate(); err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	for _, x := range r.Accels.List() {
		if have := p.Accels.Amount(x.Name); x.Amount > have {
			return fmt.Errorf("%s: %s %d: executors of profile %d have %d", field, x.Name, x.Amount, p.ID, have)
		}
	}
	return nil
}

func (p Profile) validate() error {
	switch {
	case p.Cores < 1:
		return fmt.Errorf("profile %d: cores %d: an executor needs at least 1", p.ID, p.Cores)
	case p.GPUs < 0:
		return fmt.Errorf("profile %d: gpus %d: cannot be negative", p.ID, p.GPUs)
	case p.MemoryMB < 0:
		return fmt.Errorf("profile %d: memory %d MiB: cannot be negative", p.ID, p.MemoryMB)
	}
	if err := p.Accels.validate(); err != nil {
		return fmt.Errorf("profile %d: %w", p.ID, err)
	}
	return nil
}
