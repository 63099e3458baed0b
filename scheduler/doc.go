// Package scheduler is Spindle's task scheduler core: resource profiles,
// executors and their GPU addresses (whole and fractional), jobs as DAGs of
// stages, FIFO and FAIR pools (sharing running tasks, or dominant resource
// shares: drf.go), retries, host exclusion, placement, with delay
// scheduling for tasks that prefer hosts and racks (locality.go), and
// speculative copies of stragglers (speculation.go).
//
// It is pure (docs/architecture.md): no I/O, no goroutines, no clock of its
// own. Events and the current time come in as values; decisions go out as
// values the caller carries out, in the manner of etcd-io/raft's Ready. The
// loop a caller (the ApplicationMaster, local mode's driver) writes:
//
//	s, _ := scheduler.New(cfg)
//	s.AddProfile(profile)
//	for {
//		select {
//		case ev := <-events: // from executors, the RM, the user
//			switch ev := ev.(type) {
//			case executorUp:   s.AddExecutor(now, ev.spec)
//			case executorLost: s.RemoveExecutor(now, ev.id, ev.loss)
//			case taskEnded:    s.TaskFinished(now, ev.executor, ev.attempt, ev.result)
//			case submit:       s.SubmitJob(now, ev.spec)
//			}
//		case <-timer.C: // armed from s.Wakeup(now)
//		}
//		rd := s.Ready(now)
//		for _, l := range rd.Launches { /* start l.Attempt on l.Executor with l.Addresses */ }
//		for _, k := range rd.Kills    { /* stop k.Attempt */ }
//		for _, f := range rd.Finished { /* report f.Job */ }
//	}
//
// After a work-preserving restart of the ApplicationMaster (YARN kept its
// containers), the caller brings the scheduler to where the previous
// attempt left it before placing anything: it submits each job that had
// not ended (NumberFrom keeps its ids), calls RestoreSucceeded for each
// task the journal says succeeded, a stage's parents before it, and
// RestoreFailures for the failures it says the others had (Ready's
// Failures, as they happened), NumberAttemptsFrom with the range of
// attempt numbers that is its own, and, as each kept executor registers
// again (AddExecutor), Adopt for each attempt it still runs, with the
// GPU addresses it holds. A call that does not fit (the task succeeded
// or runs already, the executor has no room, the addresses are not
// free) is refused and changes nothing: the caller stops that attempt.
// These are correct between Ready calls too, but a task placed since
// the restart is no longer restorable.
//
// The same events at the same times give the same decisions: ties are broken
// by ids, never by map order or chance. Queries (Demand, Executors,
// JobProgress, PoolProgress, WhyPending) feed dynamic allocation and what
// the user sees. `make lint` (tools/puritycheck) fails if this package
// imports os, net, sync, logging, RPC or yarnpb packages, reads the clock
// or starts a goroutine. README.md draws the pipeline and defines the
// terms.
package scheduler
