package core

import (
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// labelFits says whether executors of p may run st's tasks as far as
// node labels and placement go: on YARN (the core keeps containers) a
// stage naming a label or a placement of its own runs only on executors
// asked with them, so a session adds a profile for it (fit.go) rather
// than run it elsewhere; locally there are no nodes and both mean
// nothing.
func (c *Core) labelFits(st jobspec.Stage, p scheduler.Profile) bool {
	return c.cfg.Containers == nil || st.NodeLabel == p.NodeLabel && st.Placement == p.Placement
}
