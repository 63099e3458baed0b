package stray

import "testing"

// shared is used by b_test.go too, as is args.
func shared() int { return 1 }

var args = []string{"submit"}

// job is this file's type; startJob, which makes one, is shared.
type job struct{ n int }

func (j *job) wait() int { return j.n }

func startJob(n int) *job { return &job{n} }

func TestA(t *testing.T) {
	u := newUser()
	if u.extra() != 2 || admin.name() == "" || startJob(shared()).wait() != 1 {
		t.Fail()
	}
}
