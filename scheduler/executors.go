package scheduler

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"time"
)

// AddExecutor registers an executor that can now take tasks.
func (s *Scheduler) AddExecutor(now time.Time, spec ExecutorSpec) error {
	if spec.ID == "" {
		return fmt.Errorf("executor with no id (host %q)", spec.Host)
	}
	if _, dup := s.executors[spec.ID]; dup {
		return fmt.Errorf("executor %s is already registered", spec.ID)
	}
	prof, ok := s.profiles[spec.Profile]
	if !ok {
		return fmt.Errorf("executor %s: profile %d is not registered", spec.ID, spec.Profile)
	}
	if spec.Cores < 1 {
		return fmt.Errorf("executor %s: cores %d: want at least 1", spec.ID, spec.Cores)
	}
	gpus, err := newAddresses("GPU", spec.GPUs)
	if err != nil {
		return fmt.Errorf("executor %s: %w", spec.ID, err)
	}
	accels, err := newAccelSet(prof.Accels, spec.Accels)
	if err != nil {
		return fmt.Errorf("executor %s: %w", spec.ID, err)
	}
	h := s.hosts[spec.Host]
	if h == nil {
		h = &host{name: spec.Host}
		s.hosts[spec.Host] = h
	}
	// Every task takes a core, so cores bound what runs here at once: size
	// the list for it now rather than growing it while placing.
	ex := &executor{spec: spec, profile: prof, host: h, freeCores: spec.Cores, gpus: gpus, accels: accels, idleSince: now, running: make([]taskRef, 0, spec.Cores)}
	i, _ := slices.BinarySearchFunc(prof.executors, spec.ID, func(e *executor, id ExecutorID) int { return strings.Compare(string(e.spec.ID), string(id)) })
	prof.executors = slices.Insert(prof.executors, i, ex)
	prof.reindex()
	s.executors[spec.ID] = ex
	s.resize(spec, 1)
	return nil
}

// RemoveExecutor forgets a lost executor. Its running attempts end: as
// failures when loss.TaskFault, otherwise they run again uncounted.
func (s *Scheduler) RemoveExecutor(now time.Time, id ExecutorID, loss ExecutorLoss) error {
	ex, ok := s.executors[id]
	if !ok {
		return fmt.Errorf("executor %s is not registered", id)
	}
	ex.removed = true
	delete(s.executors, id)
	prof := ex.profile
	prof.executors = slices.Delete(prof.executors, ex.slot, ex.slot+1)
	prof.reindex()
	reason := fmt.Sprintf("executor %s on %s lost: %s", id, ex.spec.Host, loss.Reason)
	for len(ex.running) > 0 {
		ref := ex.running[len(ex.running)-1]
		ex.running = ex.running[:len(ex.running)-1]
		// Nothing to release: the executor and what it held are gone.
		r := TaskResult{Outcome: Failed, Reason: reason, Blameless: !loss.TaskFault}
		if ref.copy {
			c := ref.st.specul.copies[ref.idx]
			c.exec = nil
			s.copyEnded(now, ref.st, int(ref.idx), c, r, ex.host)
			continue
		}
		t := ref.st.at(ref.idx)
		t.exec = nil
		s.originalEnded(now, ref.st, t, int(ref.idx), r, ex.host)
	}
	s.resize(ex.spec, -1)
	return nil
}

// DisableExecutor stops placing tasks on an executor whose end is known
// but not yet explained: its connection closed, and whether its tasks
// caused that (a container killed for memory) is still to come from the
// cluster. What runs there stays running until RemoveExecutor says how
// the executor ended: Spark's executors pending a loss reason.
func (s *Scheduler) DisableExecutor(id ExecutorID) error {
	ex, ok := s.executors[id]
	if !ok {
		return fmt.Errorf("executor %s is not registered", id)
	}
	ex.disabled = true
	ex.profile.setFree(ex, false)
	return nil
}

// EnableExecutor lets a disabled executor take tasks again: the reason
// it was set aside went away before the executor did (a node being
// decommissioned was recommissioned). Enabling one that takes tasks
// changes nothing.
func (s *Scheduler) EnableExecutor(id ExecutorID) error {
	ex, ok := s.executors[id]
	if !ok {
		return fmt.Errorf("executor %s is not registered", id)
	}
	ex.disabled = false
	ex.profile.setFree(ex, ex.freeCores > 0)
	return nil
}

// reindex renumbers the executors after one came or went and rebuilds the
// free-core bitmap.
func (p *profileState) reindex() {
	p.free = make([]uint64, (len(p.executors)+63)/64)
	for i, ex := range p.executors {
		ex.slot = i
		if ex.freeCores > 0 && !ex.disabled {
			p.free[i/64] |= 1 << (i % 64)
		}
	}
	if p.cursor >= len(p.executors) {
		p.cursor = 0
	}
}

func (p *profileState) setFree(ex *executor, free bool) {
	if free && !ex.disabled {
		p.free[ex.slot/64] |= 1 << (ex.slot % 64)
	} else {
		p.free[ex.slot/64] &^= 1 << (ex.slot % 64)
	}
}

// nextFree returns the first executor at or after slot i with a free core,
// or -1.
func (p *profileState) nextFree(i int) int {
	for w := i / 64; w < len(p.free); w++ {
		word := p.free[w]
		if w == i/64 {
			word &= ^uint64(0) << (i % 64)
		}
		if word != 0 {
			return w*64 + bits.TrailingZeros64(word)
		}
	}
	return -1
}

// occupy records an attempt of st's task idx, t, running on ex with the
// GPU addresses addrs and accelerator addresses accels.
func (ex *executor) occupy(st *stage, t *task, idx int, addrs []string, accels []Assigned) {
	t.exec, t.slot = ex, ex.hold(st, idx, addrs, accels)
}

// hold takes what an attempt of st's task idx asks on ex, and returns its
// slot in ex.running.
func (ex *executor) hold(st *stage, idx int, addrs []string, accels []Assigned) int32 {
	n := len(ex.running)
	ex.running = slices.Grow(ex.running, 1)[:n+1] // sized for its cores: no growth
	ex.running[n].set(st, int32(idx), addrs, accels)
	ex.freeCores -= st.spec.Request.CPUs
	if ex.freeCores <= 0 {
		ex.profile.setFree(ex, false)
	}
	return int32(n)
}

// vacate gives back what st's task t held on ex.
func (ex *executor) vacate(now time.Time, st *stage, t *task) error {
	err := ex.release(now, st, t.slot)
	t.exec = nil
	return err
}

// release gives back what the attempt of st in ex.running[slot] held.
func (ex *executor) release(now time.Time, st *stage, slot int32) error {
	addrs, accels := ex.running[slot].addrs, ex.running[slot].accels
	last := len(ex.running) - 1
	moved := &ex.running[last]
	movedCopy := moved.copy // before set: moved may be slot itself
	ex.running[slot].set(moved.st, moved.idx, moved.addrs, moved.accels)
	if movedCopy {
		ex.running[slot].copy = true
		moved.st.specul.copies[moved.idx].slot = slot
	} else {
		moved.st.at(moved.idx).slot = slot
	}
	// The slot left must not keep its stage, and every task of it,
	// reachable for as long as the executor lives.
	moved.set(nil, 0, nil, nil)
	ex.running = ex.running[:last]
	if ex.freeCores <= 0 {
		ex.profile.setFree(ex, true)
	}
	ex.freeCores += st.spec.Request.CPUs
	if len(ex.running) == 0 {
		ex.idleSince = now
	}
	err := ex.gpus.release(addrs, st.spec.Request.GPU)
	if aerr := ex.accels.release(accels, st.spec.Request.Accels); err == nil {
		err = aerr
	}
	if err != nil {
		return fmt.Errorf("executor %s: %w (a scheduler bug)", ex.spec.ID, err)
	}
	return nil
}
