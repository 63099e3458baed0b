package executor

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// procStat is what /proc/PID/stat says of a process: its state letter and
// process group.
func procStat(pid int) (state byte, pgrp int, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// "pid (comm) S ppid pgrp …"; comm may hold spaces and parentheses.
	rest := string(data[strings.LastIndexByte(string(data), ')')+2:])
	f := strings.Fields(rest)
	if len(f) < 3 {
		return 0, 0, false
	}
	pgrp, _ = strconv.Atoi(f[2])
	return f[0][0], pgrp, true
}

// groupMembers lists the live (not zombie) processes of process group pgid.
func groupMembers(pgid int) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if state, pgrp, ok := procStat(pid); ok && pgrp == pgid && state != 'Z' {
			pids = append(pids, pid)
		}
	}
	return pids
}

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	state, _, ok := procStat(pid)
	return ok && state != 'Z'
}

// waitGone fails unless every pid is dead within two seconds (a killed
// process takes a moment to finish exiting).
func waitGone(t *testing.T, pids []int) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var left []int
		for _, p := range pids {
			if alive(p) {
				left = append(left, p)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes %v still running", left)
		}
	}
}

// waitGroupSize waits until process group pgid has n live members.
func waitGroupSize(t *testing.T, pgid, n int) []int {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if m := groupMembers(pgid); len(m) >= n {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("process group %d never had %d members", pgid, n)
		}
	}
}
