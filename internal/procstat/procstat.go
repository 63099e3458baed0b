// Package procstat reads what Spindle needs of a process's
// /proc/PID/stat: its state, parent and process group. Containment walks
// process trees by it (executor/contain), and a session's client asks
// whether a local session's driver has exited (deploy/session).
package procstat

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// Stat is what a process's stat line says of it.
type Stat struct {
	State byte // R running, S sleeping, D waiting on disk, Z zombie, X dead, …
	PPID  int  // its parent
	PGRP  int  // its process group
}

// Read reads process pid's stat line. A process that is gone is an
// error wrapping fs.ErrNotExist.
func Read(pid int) (Stat, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Stat{}, err
	}
	return Parse(data)
}

// Parse parses a stat line: "pid (comm) S ppid pgrp …". comm is whatever
// name the process gave itself, spaces and parentheses included, so the
// fields after it are found after the line's last ')'.
func Parse(data []byte) (Stat, error) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return Stat{}, fmt.Errorf("stat line %q: no (comm)", data)
	}
	f := bytes.Fields(data[i+1:])
	if len(f) < 3 || len(f[0]) != 1 {
		return Stat{}, fmt.Errorf("stat line %q: want a state, a parent and a group after (comm)", data)
	}
	ppid, err := strconv.Atoi(string(f[1]))
	if err != nil {
		return Stat{}, fmt.Errorf("stat line %q: parent %q: %v", data, f[1], err)
	}
	pgrp, err := strconv.Atoi(string(f[2]))
	if err != nil {
		return Stat{}, fmt.Errorf("stat line %q: group %q: %v", data, f[2], err)
	}
	return Stat{State: f[0][0], PPID: ppid, PGRP: pgrp}, nil
}
