package procstat

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"
)

// comm is whatever a process names itself: the fields after it are found
// after the last ')', whatever it holds.
func TestParseTakesTheFieldsAfterTheLastParenthesis(t *testing.T) {
	for _, comm := range []string{"sleep", "a) b (c", "x) R 1 1 (", ")", "(", "with space", ""} {
		line := "4242 (" + comm + ") Z 17 4000 4000 0 -1 4194560 97 0 0 0 0 0\n"
		st, err := Parse([]byte(line))
		if err != nil {
			t.Errorf("comm %q: %v", comm, err)
			continue
		}
		if want := (Stat{State: 'Z', PPID: 17, PGRP: 4000}); st != want {
			t.Errorf("comm %q: %+v, want %+v", comm, st, want)
		}
	}
}

func TestParseRefusesABrokenLine(t *testing.T) {
	for _, line := range []string{"", "4242 sleep S 1 1", "4242 (sleep) S 1", "4242 (sleep) S x 1", "4242 (sleep) S 1 y",
		"4242 (sleep) SS 1 1", "4242 (sleep)"} {
		if st, err := Parse([]byte(line)); err == nil {
			t.Errorf("%q parsed as %+v", line, st)
		}
	}
}

// This process's own stat line says what the kernel says of it.
func TestReadThisProcess(t *testing.T) {
	st, err := Read(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if st.PPID != os.Getppid() || st.PGRP != syscall.Getpgrp() || !strings.ContainsRune("RS", rune(st.State)) {
		t.Errorf("%+v; want parent %d, group %d, running", st, os.Getppid(), syscall.Getpgrp())
	}
}

func TestReadAProcessThatIsGone(t *testing.T) {
	// Past the largest pid Linux gives (pid_max is at most 2^22).
	if _, err := Read(1 << 23); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Read of no process: %v, want fs.ErrNotExist", err)
	}
}
