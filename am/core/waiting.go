package core

// TasksWaiting counts the running jobs' tasks that are neither running
// nor done: queued, backing off, or in a stage still waiting for its
// parents. It is the sum of the pools' Pending on the tracking page, the
// figure spindle sim charts as "tasks waiting".
func (c *Core) TasksWaiting() int {
	n := 0
	for _, p := range c.sched.Pools() {
		n += p.Pending
	}
	return n
}
