package stray

import "testing"

// extra is a method of the helpers file's user that a_test.go calls.
func (u *user) extra() int { return u.n + 1 }

// name is one it calls through the helpers file's admin, a variable.
func (u *user) name() string { return "user" }

func TestB(t *testing.T) {
	if shared() != 1 || len(args) != 1 || startJob(2).wait() != 2 {
		t.Fail()
	}
}
