package scheduler

import (
	"fmt"
	"slices"
	"strings"
)

// Resources besides GPUs (FPGAs, TPUs, ...: Spark's custom resources) are
// accelerators: each is a named list of addresses per executor, of which a
// task takes whole ones. GPUs keep their own fields, for the fractions and
// the visibility variables only they have.

// MaxAccelerators bounds how many kinds of accelerator an application
// names: enough for any real node, and small enough that a Profile and a
// TaskRequest stay fixed-size, comparable values.
const MaxAccelerators = 4

// Accelerator is an amount of one named resource besides GPUs.
type Accelerator struct {
	Name   string
	Amount int
}

// Accelerators are amounts of resources besides GPUs, sorted by name,
// the unused entries zero and last. An array, not a map: Profiles and
// TaskRequests are compared with == and key maps.
type Accelerators [MaxAccelerators]Accelerator

// NewAccelerators builds the fixed-order value of amounts by name,
// leaving out zero amounts; more than MaxAccelerators names, a negative
// amount or an empty name is an error.
func NewAccelerators(amounts map[string]int) (Accelerators, error) {
	var a Accelerators
	names := make([]string, 0, len(amounts))
	for name, n := range amounts {
		switch {
		case name == "":
			return a, fmt.Errorf("an accelerator with no name")
		case n < 0:
			return a, fmt.Errorf("accelerator %s: amount %d cannot be negative", name, n)
		case n > 0:
			names = append(names, name)
		}
	}
	if len(names) > MaxAccelerators {
		slices.Sort(names)
		return a, fmt.Errorf("%d accelerators (%s): at most %d kinds besides GPUs", len(names), strings.Join(names, ", "), MaxAccelerators)
	}
	slices.Sort(names)
	for i, name := range names {
		a[i] = Accelerator{Name: name, Amount: amounts[name]}
	}
	return a, nil
}

// Amount is how much of name a holds (0 when it names none).
func (a Accelerators) Amount(name string) int {
	for _, x := range a {
		if x.Name == name {
			return x.Amount
		}
	}
	return 0
}

// Within says whether b holds every amount a names.
func (a Accelerators) Within(b Accelerators) bool {
	for _, x := range a.List() {
		if x.Amount > b.Amount(x.Name) {
			return false
		}
	}
	return true
}

// Len is how many kinds a names.
func (a Accelerators) Len() int {
	n := 0
	for n < len(a) && a[n].Name != "" {
		n++
	}
	return n
}

// List is a's kinds in order.
func (a Accelerators) List() []Accelerator { return a[:a.Len()] }

func (a Accelerators) String() string {
	parts := make([]string, 0, a.Len())
	for _, x := range a.List() {
		parts = append(parts, fmt.Sprintf("%d %s", x.Amount, x.Name))
	}
	return strings.Join(parts, ", ")
}

// validate checks a is in the form NewAccelerators gives.
func (a Accelerators) validate() error {
	n := a.Len()
	for i, x := range a {
		switch {
		case i >= n && x != (Accelerator{}):
			return fmt.Errorf("accelerator %d (%d %q) follows an empty entry", i, x.Amount, x.Name)
		case i >= n:
		case x.Amount < 0:
			return fmt.Errorf("accelerator %s: amount %d cannot be negative", x.Name, x.Amount)
		case i > 0 && a[i-1].Name >= x.Name:
			return fmt.Errorf("accelerators %s and %s are not in order", a[i-1].Name, x.Name)
		}
	}
	return nil
}

// Assigned are the addresses of one accelerator an attempt holds, or an
// executor has.
type Assigned struct {
	Name      string
	Addresses []string
}

// Addresses are the addresses of name in list (nil when it names none).
func Addresses(list []Assigned, name string) []string {
	for _, x := range list {
		if x.Name == name {
			return x.Addresses
		}
	}
	return nil
}
