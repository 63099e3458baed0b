// Package contain runs a process so that nothing it starts outlives it:
// not its grandchildren, not the ones that ignore SIGTERM, not the ones
// that call setsid to leave its process group. It is how an executor runs
// tasks and discovery scripts.
//
// Process groups alone cannot do this (setsid leaves the group, and a
// killed parent's children are re-parented to init), and cgroups need
// privileges or a delegated hierarchy that a YARN container may not have.
// So every contained process runs under a guard: a second copy of this
// binary, started from /proc/self/exe, that stays its parent.
//
//	executor ── control socket ──► guard (own process group; child subreaper)
//	                                 └─ process (own process group; parent-death SIGKILL)
//	                                      └─ its children, setsid or not …
//
// The guard marks itself a child subreaper (prctl PR_SET_CHILD_SUBREAPER),
// so every orphan of the tree is re-parented to it rather than to init: the
// whole tree stays below the guard, where it can be found by walking /proc.
// It ends the tree, and then itself, when
//
//  1. the process exits: whatever it left running is killed at once;
//  2. the caller asks it to stop (Process.Stop): SIGTERM to every process
//     of the tree, SIGKILL to what is left after the grace period;
//  3. the caller is gone, however it died (even SIGKILL): the kernel closes
//     the caller's end of the control socket, the guard reads end-of-file
//     and kills the tree at once. Nothing depends on the dying process
//     doing anything.
//
// The guard runs in a process group of its own, so a signal to the
// caller's group (a YARN NodeManager killing a container signals its
// group, SIGTERM then SIGKILL) ends the caller and leaves the guard to
// clean up. The process it guards gets its own group too, so that a task
// running `kill 0` signals its own tree, not its guard.
//
// The guard also carries the process's output: it reads stdout and
// stderr through pipes and keeps at most MaxOutput bytes of each, the tail
// (see tail.go), reporting how much it cut.
//
// A guard runs one process at a time, and a Pool keeps guards for the
// next: starting this binary costs milliseconds, a process's own fork and
// exec far less. When a process exits and its guard has no child left,
// its tree is empty (orphans are re-parented as their parent exits), and
// the walk of /proc is skipped.
//
// # The caller's duties
//
//  1. Call MaybeGuard first thing in main (and in TestMain of any test
//     binary that starts contained processes): in a process started as a
//     guard it runs the guard and exits; otherwise it returns at once.
//  2. Wait for every started Process (Wait), and Stop the ones it no longer
//     wants. A Process that is never waited for keeps its guard as a zombie.
//  3. Close a Pool once it starts nothing more: its idle guards exit.
//
// # Limits
//
// Linux only. A process that is SIGKILLed cannot clean up, so the guard
// must not be: a guard killed by SIGKILL (by hand, or by the OOM killer,
// which prefers bigger processes) leaves the guarded process to die of its
// parent-death signal, but that process's own children then go to the next
// subreaper above, or init. Processes are found by /proc parent links and
// signalled by pid; a pid freed and reused between the two (microseconds,
// and only after the pid space wraps) would be signalled wrongly. A process
// that hands a pipe or socket to an unrelated process outside the tree, or
// asks another daemon (at, systemd-run, a container runtime) to start work
// for it, is outside any tree and outside this guarantee.
package contain
