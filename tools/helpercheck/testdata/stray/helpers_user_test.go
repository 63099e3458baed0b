package stray

import "testing"

type user struct{ n int }

func newUser() *user { return &user{1} }

// unused is a helper nothing calls.
func unused() {}

func TestInHelpers(t *testing.T) {}

var admin = newUser()
