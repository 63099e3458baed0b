package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// echo prints its command's words, and fails on "bad" with the line of
// the input line "bad".
func echo(b Block) (string, error) {
	for _, in := range b.Input {
		if in.Text == "bad" {
			return "", AtLine(in.Line, errors.New("a bad input"))
		}
	}
	if b.Cmd == "bad" {
		return "", errors.New("a bad command")
	}
	return strings.TrimPrefix(b.Cmd, "echo "), nil
}

func TestRunFileComparesAndRewrites(t *testing.T) {
	path := write(t, "# prologue\n\necho a\n----\na\n\necho b\nin\n----\nnot b\n\nnothing\n----\nstale\n")
	res, err := RunFile(path, func(b Block) (string, error) {
		if b.Cmd == "nothing" {
			return "", nil
		}
		return echo(b)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Mismatches) != 2 || res.Mismatches[0].Line != 7 || res.Mismatches[0].Got != "b" || res.Mismatches[1].Got != "ok" {
		t.Fatalf("mismatches %+v", res.Mismatches)
	}
	want := "# prologue\n\necho a\n----\na\n\necho b\nin\n----\nb\n\nnothing\n----\nok\n"
	if res.Rewritten != want {
		t.Fatalf("rewritten %q, want %q", res.Rewritten, want)
	}
}

func TestRunFileNamesTheLine(t *testing.T) {
	for _, c := range []struct{ script, want string }{
		{"echo a\n----\na\n\nbad\n----\nok\n", ":5: bad: a bad command"},
		{"echo a\nok\nbad\n----\na\n", ":3: echo a: a bad input"},
		{"echo a\n\n----\na\n", ":2: blank line before ----"},
		{"echo a\n----\na\n\necho b\n", ":5: echo b: no ----"},
	} {
		path := write(t, c.script)
		_, err := RunFile(path, echo)
		if err == nil || err.Error() != path+c.want {
			t.Errorf("%q: error %v, want %s%s", c.script, err, path, c.want)
		}
	}
}
