package contain

import (
	"os"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	"github.com/spindle-yarn/spindle/internal/procstat"
)

// descendants lists the live processes below root, from the parent links
// in /proc/PID/stat. Zombies are left out: they hold nothing and cannot be
// signalled to any effect. The order is breadth first, parents before
// their children.
func descendants(root int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := procstat.Read(pid); err == nil && st.State != 'Z' {
			children[st.PPID] = append(children[st.PPID], pid)
		}
	}
	var out []int
	queue := children[root]
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		out = append(out, pid)
		queue = append(queue, children[pid]...)
	}
	return out
}

// signalOutside sends sig to every live process below root but those of
// process group group, which the caller signals as a group: a process
// signalled twice may run its handler twice (a shell's trap, a training
// script's checkpoint).
func signalOutside(root, group int, sig syscall.Signal) {
	for _, pid := range descendants(root) {
		if st, err := procstat.Read(pid); err != nil || st.PGRP != group {
			syscall.Kill(pid, sig)
		}
	}
}

// signalTree sends sig to every live process below root, once.
func signalTree(root int, sig syscall.Signal) {
	for _, pid := range descendants(root) {
		syscall.Kill(pid, sig)
	}
}

// killTree SIGKILLs everything below root until nothing is left or the
// deadline passes. A process forking while it is killed leaves children
// that the next pass finds: as the root is a subreaper, they are
// re-parented to it, not lost.
func killTree(root int, deadline time.Time) {
	for {
		pids := descendants(root)
		if len(pids) == 0 || time.Now().After(deadline) {
			return
		}
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// setChildSubreaper makes orphans below this process its children rather
// than init's (prctl PR_SET_CHILD_SUBREAPER, Linux 3.4).
func setChildSubreaper() error {
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return os.NewSyscallError("prctl(PR_SET_CHILD_SUBREAPER)", errno)
	}
	return nil
}

// setName sets this process's name (its comm: what top and ps -o comm
// show), which is otherwise "exe", from /proc/self/exe.
func setName(name string) {
	const prSetName = 15
	b := append([]byte(name), 0)
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetName, uintptr(unsafe.Pointer(&b[0])), 0)
}
