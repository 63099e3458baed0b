package docs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The mutation pass docs/testing.md shows is one a reader can run as it
// stands: each mutant's line is in its file exactly once, as make mutate
// requires.
func TestTheMutationExampleRuns(t *testing.T) {
	m := repo(t)
	p := readPage(t, m.root, "docs/testing.md")
	mutants := 0
	for _, f := range p.fences {
		var file string
		for off, line := f[0], ""; off < f[1]; off += len(line) + 1 {
			line, _, _ = strings.Cut(p.text[off:f[1]], "\n")
			if rest, ok := strings.CutPrefix(line, "mutant "); ok {
				file = strings.TrimSpace(rest)
				continue
			}
			old, ok := strings.CutPrefix(line, "- ")
			if !ok || file == "" {
				continue
			}
			mutants++
			src, err := os.ReadFile(filepath.Join(m.root, file))
			if err != nil {
				t.Errorf("%s: the mutant's file: %v", p.at(off), err)
				continue
			}
			if n := strings.Count(string(src), old); n != 1 {
				t.Errorf("%s: %q is in %s %d times; make mutate wants it once", p.at(off), old, file, n)
			}
		}
	}
	if mutants == 0 {
		t.Errorf("%s shows no mutant", p.path)
	}
}
