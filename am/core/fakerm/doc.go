// Package fakerm is a ResourceManager with YARN's ask semantics and
// nothing else, for the AM's core to be run against without a cluster:
// am/core/coretest's scripts and the simulator (am/sim) share it.
//
// As YARN's AMRMClient protocol has it:
//
//   - An ask is absolute: the number of containers now wanted under its
//     allocation request id. A higher number adds requests, a lower one
//     cancels the id's newest; ids an allocate does not name keep theirs.
//     Asks are never re-sent.
//   - Containers are handed out only in the answer to an allocate (Grant),
//     each filling its oldest request, once that request has waited
//     Delay, and while fewer than Capacity containers are held.
//   - A container released or ended is no longer held; one that ended is
//     reported completed in the next answer.
//
// It is pure, as the core is: the caller passes the time, and nothing
// happens between calls.
package fakerm
