package faultsim

import (
	"context"
	"errors"
	"maps"
	"slices"
	"time"
)

// store is the journal's store (HDFS, in the product): segments by name,
// written whole or, by a writer that died mid-write, half under the
// temporary name deploy/staging uploads to before it renames. Outages
// fail its operations for a while.
type store struct {
	w        *world
	segments map[string][]byte
	outages  []Fault
}

func newStore(w *world) *store { return &store{w: w, segments: map[string][]byte{}} }

// failing says whether an operation of this kind fails now.
func (s *store) failing(kind string) bool {
	for _, f := range s.outages {
		if !s.w.now.Before(epoch.Add(f.At)) && s.w.now.Before(epoch.Add(f.Until)) && slices.Contains(f.Ops, kind) {
			return true
		}
	}
	return false
}

var (
	errOutage = errors.New("the store is out of reach")
	errDead   = errors.New("the ApplicationMaster process is dead")
)

// attemptStore is the store as an AM attempt reaches it: each operation
// counted, so that a crash may fall on it (Fault.Op), in any phase.
type attemptStore struct{ a *attempt }

func (v attemptStore) List(context.Context) ([]string, error) {
	var names []string
	err := v.a.storeOp("list", func() error {
		names = slices.Sorted(maps.Keys(v.a.w.store.segments))
		return nil
	}, nil)
	return names, err
}

func (v attemptStore) Read(_ context.Context, name string) ([]byte, error) {
	var data []byte
	err := v.a.storeOp("read", func() error {
		d, ok := v.a.w.store.segments[name]
		if !ok {
			return errors.New(name + ": no such segment")
		}
		data = d
		return nil
	}, nil)
	return data, err
}

func (v attemptStore) Write(_ context.Context, name string, data []byte) error {
	s := v.a.w.store
	return v.a.storeOp("write", func() error {
		s.segments[name] = data
		v.a.w.h.journalled(v.a)
		return nil
	}, func() {
		s.segments["."+name+".tmp"] = data[:len(data)/2]
	})
}

func (v attemptStore) Remove(_ context.Context, name string) error {
	return v.a.storeOp("write", func() error {
		delete(v.a.w.store.segments, name)
		return nil
	}, nil)
}

// storeOp does one operation of the attempt's on the store, unless the
// store is out or the attempt dies on it: before it (it never happens),
// torn (a write leaves half its segment under the temporary name), or
// after it (it happened; the AM never learns).
func (a *attempt) storeOp(kind string, do func() error, torn func()) error {
	if a.dead {
		return errDead
	}
	a.ops++
	f := a.crashAt(a.ops)
	switch {
	case f != nil && f.Phase == Torn && torn != nil:
		torn()
		a.w.count("segment torn")
		a.crash("mid-write, at its store operation " + itoa(a.ops))
		return errDead
	case f != nil && f.Phase != After:
		a.crash("before its store operation " + itoa(a.ops) + " (" + kind + ")")
		return errDead
	case a.w.store.failing(kind):
		a.w.count("store operation failed")
		a.w.logf("attempt %d: the store fails a %s", a.n, kind)
		return errOutage
	}
	err := do()
	if f != nil {
		a.crash("after its store operation " + itoa(a.ops) + " (" + kind + ")")
		return errDead
	}
	return err
}

// crashAt is the crash fault on the attempt's op-th store operation.
func (a *attempt) crashAt(op int) *Fault {
	for i := range a.crashes {
		if a.crashes[i].Op == op {
			return &a.crashes[i]
		}
	}
	return nil
}

// outage starts failing the store's operations.
func (s *store) outage(f Fault) {
	s.outages = append(s.outages, f)
	s.w.logf("the store fails %v until %v", f.Ops, time.Duration(f.Until))
}
