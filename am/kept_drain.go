package am

import (
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/journal"
)

// keptDrain is the drain the journal says a kept container's executor
// was on, as the core takes it; nil for none.
func keptDrain(drains map[string]journal.Drain, id string) *core.KeptDrain {
	x, ok := drains[id]
	if !ok {
		return nil
	}
	k := &core.KeptDrain{Reason: x.Reason, Decommissioning: x.Decommissioning}
	if x.ReleaseBy > 0 {
		k.ReleaseBy = time.UnixMilli(x.ReleaseBy)
	}
	return k
}
