package executor

import (
	"os"
	"syscall"
	"unsafe"
)

// waitExited blocks until process pid has exited, without reaping it
// (waitid with WNOWAIT): while it is an unreaped zombie its pid, which is
// also its process group's id, cannot be given to another process, so
// signalling the group stays safe. os/exec offers no such step.
func waitExited(pid int) error {
	const pPID = 1     // P_PID in <sys/wait.h>
	var info [128]byte // siginfo_t, which we do not read
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid),
			uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		switch errno {
		case 0:
			return nil
		case syscall.EINTR:
			continue
		}
		return os.NewSyscallError("waitid", errno)
	}
}
