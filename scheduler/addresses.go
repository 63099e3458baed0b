package scheduler

import (
	"fmt"
	"slices"
)

// addresses is one executor's GPU (or one accelerator's) addresses and what is left of each, as
// Spark's address availability map, generalised to fractions in fixed
// point. Tasks always receive concrete addresses.
type addresses struct {
	kind  string // "GPU", or the accelerator's name, for messages
	names []string
	free  []Share
	index map[string]int
}

func newAddresses(kind string, names []string) (*addresses, error) {
	a := &addresses{kind: kind, names: append([]string(nil), names...), free: make([]Share, len(names)), index: make(map[string]int, len(names))}
	for i, n := range names {
		if n == "" {
			return nil, fmt.Errorf("%s address %d is empty", kind, i)
		}
		if _, dup := a.index[n]; dup {
			return nil, fmt.Errorf("%s address %q listed twice", kind, n)
		}
		a.index[n] = i
		a.free[i] = One
	}
	return a, nil
}

// fits reports whether g could be acquired now.
func (a *addresses) fits(g GPURequest) bool {
	switch {
	case g.IsZero():
		return true
	case g.whole > 0:
		n := 0
		for _, f := range a.free {
			if f == One {
				if n++; n == g.whole {
					return true
				}
			}
		}
		return false
	}
	for _, f := range a.free {
		if f >= g.fraction {
			return true
		}
	}
	return false
}

// acquire takes g from the lowest addresses that can give it, or returns
// false. A fraction is taken from a single address; its result is a view
// of the executor's names, so placing it allocates nothing.
func (a *addresses) acquire(g GPURequest) ([]string, bool) {
	switch {
	case g.IsZero():
		return nil, true
	case g.whole > 0:
		if !a.fits(g) {
			return nil, false
		}
		got := make([]string, 0, g.whole)
		for i := range a.free {
			if a.free[i] == One {
				a.free[i] = 0
				if got = append(got, a.names[i]); len(got) == g.whole {
					break
				}
			}
		}
		return got, true
	}
	for i, f := range a.free {
		if f >= g.fraction {
			a.free[i] -= g.fraction
			return a.names[i : i+1 : i+1], true
		}
	}
	return nil, false
}

// release gives back what acquire gave for g. Releasing an address the
// executor does not have, or more than was taken, is a bug in the caller:
// it is reported and nothing is changed.
func (a *addresses) release(names []string, g GPURequest) error {
	amount := One
	if g.fraction > 0 {
		amount = g.fraction
		if len(names) != 1 {
			return fmt.Errorf("releasing a %s GPU share from %d addresses, want 1", g, len(names))
		}
	} else if len(names) != g.whole {
		return fmt.Errorf("releasing %d %ss from %d addresses", g.whole, a.kind, len(names))
	}
	for k, n := range names {
		i, ok := a.index[n]
		if !ok {
			return fmt.Errorf("releasing %s address %q, which this executor does not have", a.kind, n)
		}
		// Each name is checked alone below: the same one twice would
		// give back two wholes of one address.
		if slices.Contains(names[:k], n) {
			return fmt.Errorf("releasing %s address %q twice", a.kind, n)
		}
		if a.free[i]+amount > One {
			return fmt.Errorf("releasing %s of %s address %q, which has only %s in use", g, a.kind, n, shareString(One-a.free[i]))
		}
	}
	for _, n := range names {
		a.free[a.index[n]] += amount
	}
	return nil
}

func shareString(s Share) string {
	return fmt.Sprintf("%.6g", float64(s)/float64(One))
}

// take takes g from exactly the addresses names, as an attempt launched
// elsewhere (by an earlier ApplicationMaster) holds them, or changes
// nothing and says why. It returns a copy of names, which the caller may
// reuse.
func (a *addresses) take(names []string, g GPURequest) ([]string, error) {
	amount, want := One, g.whole
	if g.fraction > 0 {
		amount, want = g.fraction, 1
	}
	if len(names) != want {
		return nil, fmt.Errorf("%d %s addresses for a request of %s %ss, want %d", len(names), a.kind, g, a.kind, want)
	}
	for k, n := range names {
		i, ok := a.index[n]
		switch {
		case !ok:
			return nil, fmt.Errorf("%s address %q is not the executor's", a.kind, n)
		case slices.Contains(names[:k], n):
			return nil, fmt.Errorf("%s address %q given twice", a.kind, n)
		case a.free[i] < amount:
			return nil, fmt.Errorf("%s address %q has %s free, the task holds %s", a.kind, n, shareString(a.free[i]), shareString(amount))
		}
	}
	for _, n := range names {
		a.free[a.index[n]] -= amount
	}
	return slices.Clone(names), nil
}
