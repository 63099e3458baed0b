package executor

import (
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/internal/procstat"
)

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	st, err := procstat.Read(pid)
	return err == nil && st.State != 'Z'
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
