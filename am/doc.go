// Package am is Spindle's YARN ApplicationMaster.
//
// One event loop owns the scheduler core and dynamic allocation; RM heartbeats
// (allocate) and NodeManager calls run in goroutines that feed events to it,
// so the loop never blocks on the network. It registers with the
// ResourceManager, keeps the ask table (one priority per resource profile,
// containers carrying yarn.io/gpu), hands containers to the launcher, turns
// completed containers into executor-lost events, and finishes by
// unregistering with the job's final status. See DESIGN.md §Data flow.
package am
