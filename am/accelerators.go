package am

import (
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// assignedFromWire reads the accelerators an executor's Register or a
// running attempt names; nil for none.
func assignedFromWire(rs []*wire.Resource) []scheduler.Assigned {
	if len(rs) == 0 {
		return nil
	}
	out := make([]scheduler.Assigned, len(rs))
	for i, r := range rs {
		out[i] = scheduler.Assigned{Name: r.GetName(), Addresses: r.GetAddresses()}
	}
	return out
}

// assignedToWire is a launch's accelerators as its Launch carries them;
// nil for none, as most launches have.
func assignedToWire(as []scheduler.Assigned) []*wire.Resource {
	if len(as) == 0 {
		return nil
	}
	out := make([]*wire.Resource, len(as))
	for i, a := range as {
		out[i] = &wire.Resource{Name: a.Name, Addresses: a.Addresses}
	}
	return out
}
