package scheduler

import "fmt"

// accelSet is one executor's addresses of each accelerator its profile
// names, in the profile's order. A task takes whole addresses of each
// kind it asks for, the lowest free first, as whole GPUs are taken.
type accelSet []accelAddresses

type accelAddresses struct {
	name  string
	addrs *addresses
}

// newAccelSet holds have, an executor's addresses, for the kinds its
// profile p names; kinds p does not name are not handed out.
func newAccelSet(p Accelerators, have []Assigned) (accelSet, error) {
	if p.Len() == 0 {
		return nil, nil
	}
	set := make(accelSet, 0, p.Len())
	for _, x := range p.List() {
		a, err := newAddresses(x.Name, Addresses(have, x.Name))
		if err != nil {
			return nil, err
		}
		set = append(set, accelAddresses{x.Name, a})
	}
	return set, nil
}

// of is the addresses of kind name; nil when the executor has none.
func (s accelSet) of(name string) *addresses {
	for _, x := range s {
		if x.name == name {
			return x.addrs
		}
	}
	return nil
}

// fits reports whether every kind r asks for could be taken now.
func (s accelSet) fits(r Accelerators) bool {
	for _, x := range r.List() {
		a := s.of(x.Name)
		if a == nil || !a.fits(WholeGPUs(x.Amount)) {
			return false
		}
	}
	return true
}

// acquire takes what r asks for; nil when it asks for nothing. The
// caller has checked that it fits.
func (s accelSet) acquire(r Accelerators) ([]Assigned, bool) {
	if r.Len() == 0 {
		return nil, true
	}
	if !s.fits(r) {
		return nil, false
	}
	out := make([]Assigned, 0, r.Len())
	for _, x := range r.List() {
		got, _ := s.of(x.Name).acquire(WholeGPUs(x.Amount))
		out = append(out, Assigned{Name: x.Name, Addresses: got})
	}
	return out, true
}

// release gives back what acquire or take gave for r.
func (s accelSet) release(held []Assigned, r Accelerators) error {
	if len(held) != r.Len() {
		return fmt.Errorf("releasing %d kinds of accelerator for a request of %d (%s)", len(held), r.Len(), r)
	}
	for _, x := range r.List() {
		a := s.of(x.Name)
		if a == nil {
			return fmt.Errorf("releasing %s, which this executor does not have", x.Name)
		}
		if err := a.release(Addresses(held, x.Name), WholeGPUs(x.Amount)); err != nil {
			return err
		}
	}
	return nil
}

// take takes exactly held, as an attempt launched by an earlier
// ApplicationMaster holds it, or changes nothing and says why.
func (s accelSet) take(held []Assigned, r Accelerators) ([]Assigned, error) {
	for _, h := range held {
		if r.Amount(h.Name) == 0 {
			return nil, fmt.Errorf("the attempt holds %s, which its stage does not ask for", h.Name)
		}
	}
	out := make([]Assigned, 0, r.Len())
	for i, x := range r.List() {
		a := s.of(x.Name)
		var got []string
		var err error
		if a == nil {
			err = fmt.Errorf("the executor has no %s", x.Name)
		} else {
			got, err = a.take(Addresses(held, x.Name), WholeGPUs(x.Amount))
		}
		if err != nil {
			for _, t := range out[:i] {
				s.of(t.Name).release(t.Addresses, WholeGPUs(r.Amount(t.Name))) // undo: they were just taken
			}
			return nil, err
		}
		out = append(out, Assigned{Name: x.Name, Addresses: got})
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}
