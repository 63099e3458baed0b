package scenario

import (
	"strings"
	"testing"
	"time"
)

func TestArgsRead(t *testing.T) {
	a := ParseArgs("status id=c1 s0/0#0 ok n=3 d=2s f=0.5 l=a,b reason=gone away: x=1", "reason")
	if a.Cmd != "status" || a.String("id", "") != "c1" || a.Int("n", 0) != 3 || a.Duration("d", 0) != 2*time.Second ||
		a.Float("f", 0) != 0.5 || strings.Join(a.List("l"), "+") != "a+b" || a.String("reason", "") != "gone away: x=1" {
		t.Fatalf("misread: %+v", a)
	}
	if w := a.Words(2); w[0] != "s0/0#0" || w[1] != "ok" {
		t.Fatalf("words %v", w)
	}
	if a.Int("absent", 7) != 7 || a.Has("absent") {
		t.Fatal("an absent key is not its default")
	}
	if err := a.Err(); err != nil {
		t.Fatal(err)
	}
}

func TestArgsRefuse(t *testing.T) {
	for _, c := range []struct {
		line string
		read func(a *Args)
		want string
	}{
		{"c n=1O", func(a *Args) { a.Int("n", 0) }, `n="1O": not a whole number`},
		{"c n=1.5", func(a *Args) { a.Int64("n", 0) }, `n="1.5": not a whole number`},
		{"c f=x", func(a *Args) { a.Float("f", 0) }, `f="x": not a number`},
		{"c d=5", func(a *Args) { a.Duration("d", 0) }, `d="5": not a duration`},
		{"c n=1 n=2", func(a *Args) { a.Int("n", 0) }, "n= given twice"},
		{"c n=1 m=2", func(a *Args) { a.Int("n", 0) }, "c m=2: unknown key"},
		{"c fine fien", func(a *Args) { a.Flag("fine") }, `c: unknown word "fien"`},
		{"c a b", func(a *Args) { a.Words(1) }, "want 1 bare words, have 2"},
		{"c", func(a *Args) { a.Words(1) }, "want 1 bare words, have 0"},
		{"   ", func(a *Args) {}, "an empty line"},
	} {
		a := ParseArgs(c.line)
		c.read(a)
		if err := a.Err(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.line, err, c.want)
		}
	}
}
