package scheduler

// LocalityDemand is what container asks need to be placed near the data,
// as Spark's YarnAllocator takes it from its ExecutorAllocationManager:
// the number of locality-aware tasks and hostToLocalTaskCount. The
// ApplicationMaster spreads a profile's new asks over hosts in proportion
// to HostTasks (Spark's LocalityPreferredContainerPlacementStrategy),
// relaxing locality so that YARN may place them elsewhere.
type LocalityDemand struct {
	// Tasks counts the tasks with preferred hosts (Spark's
	// numLocalityAwareTasks).
	Tasks int
	// HostTasks counts, for each host, the tasks preferring it (Spark's
	// hostToLocalTaskCount); nil when Tasks is 0.
	HostTasks map[string]int
}

// Add counts one task's preferences: a task without preferred hosts
// counts for nothing (its racks alone do not place a container).
func (d *LocalityDemand) Add(l TaskLocality) {
	if len(l.Hosts) == 0 {
		return
	}
	if d.HostTasks == nil {
		d.HostTasks = map[string]int{}
	}
	d.Tasks++
	for _, h := range l.Hosts {
		d.HostTasks[h]++
	}
}

// HostToLocalTaskCount is the LocalityDemand of tasks with these
// preferences.
func HostToLocalTaskCount(tasks []TaskLocality) LocalityDemand {
	var d LocalityDemand
	for _, l := range tasks {
		d.Add(l)
	}
	return d
}

// LocalityDemand is the LocalityDemand of profile p's queued tasks: those
// of its runnable stages with TaskLocality that wait for an executor
// (not those running, nor those waiting out a retry backoff). It costs
// a look at each task of those stages: call it once per allocate, not
// per event.
func (s *Scheduler) LocalityDemand(p ProfileID) LocalityDemand {
	var d LocalityDemand
	for st := range s.localized {
		if st.loc == nil || st.profile.ID != p || st.job.ended {
			continue
		}
		for i, q := range st.loc.queued {
			if q {
				d.Add(st.loc.prefs[i])
			}
		}
	}
	return d
}
