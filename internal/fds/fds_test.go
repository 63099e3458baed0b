package fds

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// A descriptor inherited without close-on-exec reaches a child process
// until CloseOnExecInherited, and not after; the process keeps it open.
func TestInheritedDescriptorsStopAtExec(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "inherited")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// As a shell's redirection leaves it: open, and not close-on-exec.
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	childSees := func() bool {
		out, err := exec.Command("ls", "-l", "/proc/self/fd/").CombinedOutput()
		if err != nil {
			t.Fatalf("ls: %v\n%s", err, out)
		}
		return strings.Contains(string(out), f.Name())
	}
	if !childSees() {
		t.Fatal("a child did not see the inherited descriptor even before: the test shows nothing")
	}
	CloseOnExecInherited()
	if childSees() {
		t.Error("a child still sees the inherited descriptor after CloseOnExecInherited")
	}
	if err := syscall.Fstat(fd, &syscall.Stat_t{}); err != nil {
		t.Errorf("the process lost its own copy: %v", err)
	}
}
