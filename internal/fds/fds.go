// Package fds keeps the file descriptors a process inherited from reaching
// the processes it starts.
//
// Go opens every descriptor of its own close-on-exec, and os/exec hands a
// child only its standard streams and ExtraFiles. But a descriptor the
// caller left open without close-on-exec (a shell's `3>&1`, a lock file, a
// pipe to a pager) stays so across exec, and then every process started
// from this one holds it too: a background session driver kept the write
// end of `spindle session start 3>&1 | cat` open, so cat never saw its end,
// and kept a caller's lock locked until the session stopped. Spindle's
// main calls CloseOnExecInherited first, so that its executors, guards and
// tasks inherit nothing but what Spindle gives them.
package fds

import (
	"os"
	"strconv"
	"syscall"
)

// CloseOnExecInherited marks every open descriptor above standard error
// close-on-exec: the process keeps them, and no process it starts gets
// them unless it passes them on itself (os/exec's ExtraFiles clears the
// flag on the child's copies).
func CloseOnExecInherited() {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		// No /proc: try the usual range, where an fd that is not open
		// costs a failed system call.
		for fd := 3; fd < 4096; fd++ {
			syscall.CloseOnExec(fd)
		}
		return
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}
