package jobspec

import (
	"math"

	"github.com/spindle-yarn/spindle/executor/taskenv"
	"github.com/spindle-yarn/spindle/scheduler"
)

// Accelerators besides GPUs in a stage's resources: any key but cpus,
// memory and gpus names one (resources: {gpus: 1, fpga: 2}), asking each
// task for that many whole addresses of it. The name is a resource's, as
// spindle.executor.resource.NAME.amount spells it (taskenv's rule); a
// name one letter off a known key is taken for a typo of it, never for
// an accelerator that the stage would then wait for in vain.

// notAccelerators are names that read as a known key misspelt.
var notAccelerators = map[string]string{"gpu": "gpus", "cpu": "cpus", "mem": "memory"}

// accelerators reads a stage's accelerator entries into amounts by name
// (nil for none).
func (d *decoder) accelerators(entries []entry, path string) map[string]int {
	var out map[string]int
	for _, e := range entries {
		p := keyField(path, e.key)
		want, typo := notAccelerators[e.key]
		if !typo {
			want = nearest(e.key, resourceKeys)
		}
		if want != "" {
			d.errorf(e.line, path, "unknown key %q; did you mean %s?", clip(e.key), want)
			continue
		}
		if err := taskenv.CheckResourceName(e.key); err != nil {
			d.errorf(e.line, path, "unknown key %q: not cpus, memory, gpus or an accelerator's name (%v)", clip(e.key), err)
			continue
		}
		n, ok := d.int(e.value, p, 0)
		if !ok {
			continue
		}
		if n > math.MaxInt32 {
			d.errorf(e.value.Line, p, "%d: too large", n)
			continue
		}
		if out == nil {
			out = map[string]int{}
		}
		out[e.key] = n
	}
	if len(out) > scheduler.MaxAccelerators {
		d.errorf(entries[0].line, path, "%d accelerators: a stage may name at most %d kinds besides gpus", len(out), scheduler.MaxAccelerators)
		return nil
	}
	return out
}

// TaskAccels are what each task of s asks besides GPUs: app, the
// application's amounts (spindle.task.resource.NAME.amount), with the
// stage's own in place of those it names. An error only for a Stage not
// made by Parse, whose amounts are unchecked, or names more kinds in all
// than an executor may have.
func (s *Stage) TaskAccels(app scheduler.Accelerators) (scheduler.Accelerators, error) {
	if len(s.Accels) == 0 {
		return app, nil
	}
	amounts := map[string]int{}
	for _, x := range app.List() {
		amounts[x.Name] = x.Amount
	}
	for name, n := range s.Accels {
		amounts[name] = n
	}
	return scheduler.NewAccelerators(amounts)
}
