package executor

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// alive reports whether pid is a live (not zombie) process, from
// /proc/PID/stat: "pid (comm) S …", where comm may hold spaces and
// parentheses.
func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	rest := string(data[strings.LastIndexByte(string(data), ')')+2:])
	return len(rest) > 0 && rest[0] != 'Z'
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
