package core

import (
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// labelFits says whether executors of p may run st's tasks as far as
// node labels go: on YARN (the core keeps containers) a stage naming a
// label runs only on executors asked with it, so a session, whose
// executors carry none, refuses it rather than run it elsewhere; locally
// there are no nodes and the label means nothing.
func (c *Core) labelFits(st jobspec.Stage, p scheduler.Profile) bool {
	return c.cfg.Containers == nil || st.NodeLabel == p.NodeLabel
}
