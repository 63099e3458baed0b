package scheduler

// Under FairDRF, FAIR mode orders pools by dominant resource share
// (Ghodsi et al., "Dominant Resource Fairness", NSDI 2011; YuniKorn sorts
// queues so): for each resource, what the pool's running tasks hold over
// what the session's executors offer; the largest of these is the pool's
// dominant share, and pools are served lowest share per weight first.
// Counting tasks instead treats a task holding a whole GPU like one
// holding a core, so a GPU pool with as many tasks as a CPU pool holds far
// more of what is scarce.
//
// minShare keeps its meaning in running tasks (fairScheduler.xml's
// unit): a pool below it is served first under either fairness, the
// needy among themselves by running/minShare, as Spark does. Only
// pools at or above their minShare are ordered by dominant share.
//
// Shares are floats: each resource's share per weight is one division of
// two exact integers, correctly rounded, so pools whose shares are equal
// as fractions compare equal and fall to the name order; shares closer
// than a float's precision (1 part in 2^53) also tie.

// usage is an amount of each resource DRF weighs: what a pool's running
// tasks hold, or what the session's executors offer. GPUs count in
// shares, so a task of 1/3 GPU holds exactly a third of one; other
// accelerators in whole addresses, by name (at most MaxAccelerators kinds
// in an application, so a fixed array: no allocation per task).
type usage struct {
	cpus   int64
	gpus   Share
	accels Accelerators
}

// taskUsage is what one running task asking r holds: the one place a
// request becomes the resources DRF weighs (a resource added to
// TaskRequest is counted here, offered in executorCapacity and weighed in
// dominantShare).
func taskUsage(r TaskRequest) usage {
	gpus := r.GPU.fraction
	if r.GPU.whole > 0 {
		gpus = Share(r.GPU.whole) * One
	}
	return usage{cpus: int64(r.CPUs), gpus: gpus, accels: r.Accels}
}

// executorCapacity is what a registered executor adds to the session's
// totals: what it really has, not its profile's shape.
func executorCapacity(spec ExecutorSpec) usage {
	u := usage{cpus: int64(spec.Cores), gpus: Share(len(spec.GPUs)) * One}
	for _, a := range spec.Accels {
		u.accels.addAmount(a.Name, len(a.Addresses))
	}
	return u
}

// add adds n times v (n is ±1: a task starts or ends, an executor comes or
// goes).
func (u *usage) add(v usage, n int64) {
	u.cpus += n * v.cpus
	u.gpus += Share(n) * v.gpus
	for _, x := range v.accels.List() {
		u.accels.addAmount(x.Name, int(n)*x.Amount)
	}
}

// addAmount adds n of name to a, in the first free entry when a names it
// not yet: a tally in arrival order, not NewAccelerators' sorted form.
// An application names at most MaxAccelerators kinds, so there is room.
func (a *Accelerators) addAmount(name string, n int) {
	for i := range a {
		if a[i].Name == name || a[i].Name == "" {
			a[i].Name = name
			a[i].Amount += n
			return
		}
	}
}

// dominantShare is u's largest share of total, divided by weight. A
// resource the session has none of (no executors yet, or none with GPUs)
// weighs nothing: no division by zero.
func dominantShare(u, total usage, weight int) float64 {
	w := float64(max(weight, 1))
	d := 0.0
	if total.cpus > 0 {
		d = max(d, float64(u.cpus)/(float64(total.cpus)*w))
	}
	if total.gpus > 0 {
		d = max(d, float64(u.gpus)/(float64(total.gpus)*w))
	}
	for _, x := range total.accels {
		if x.Amount > 0 {
			d = max(d, float64(u.accels.Amount(x.Name))/(float64(x.Amount)*w))
		}
	}
	return d
}

// charge counts n (±1) running tasks asking r against p and, under
// FairDRF, moves p's share; the caller reranks p.
func (s *Scheduler) charge(p *pool, r TaskRequest, n int64) {
	if !p.drf {
		return
	}
	p.used.add(taskUsage(r), n)
	p.share = dominantShare(p.used, s.capacity, p.cfg.Weight)
}

// resize adds n (±1) executors like spec to the session's totals under
// FairDRF: every pool's share moves, so the rank of pools is rebuilt
// (O(pools), once per executor that comes or goes, never per task).
func (s *Scheduler) resize(spec ExecutorSpec, n int64) {
	if s.cfg.Fairness != FairDRF {
		return
	}
	s.capacity.add(executorCapacity(spec), n)
	for _, p := range s.poolOrder {
		p.share = dominantShare(p.used, s.capacity, p.cfg.Weight)
	}
	s.fair.reorder()
}
