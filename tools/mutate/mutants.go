package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A mutant is one change to one file and the tests that should notice.
type mutant struct {
	where    string // MUTANTS:line, for messages
	file     string // relative to the root
	from, to string
	test     []string // go test's arguments
}

// readMutants reads a MUTANTS file (the format is in main.go's comment).
func readMutants(path string) ([]mutant, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []mutant
	var cur *mutant
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		at := fmt.Sprintf("%s:%d", path, n)
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		word, rest, _ := strings.Cut(trimmed, " ")
		switch {
		case word == "mutant":
			if err := complete(cur); err != nil {
				return nil, err
			}
			if rest == "" {
				return nil, fmt.Errorf("%s: mutant names no file", at)
			}
			out = append(out, mutant{where: at, file: filepath.FromSlash(rest)})
			cur = &out[len(out)-1]
		case cur == nil:
			return nil, fmt.Errorf("%s: %q before the first mutant line", at, trimmed)
		case word == "-" || trimmed == "-":
			cur.from = strings.TrimPrefix(strings.TrimPrefix(trimmed, "-"), " ")
		case word == "+" || trimmed == "+":
			cur.to = strings.TrimPrefix(strings.TrimPrefix(trimmed, "+"), " ")
		case word == "test":
			cur.test = strings.Fields(rest)
		default:
			return nil, fmt.Errorf("%s: %q: want a mutant, -, + or test line", at, trimmed)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := complete(cur); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no mutant", path)
	}
	return out, nil
}

// complete checks a mutant once its block has ended, and fills in the
// default test: the file's package.
func complete(m *mutant) error {
	if m == nil {
		return nil
	}
	if m.from == "" {
		return fmt.Errorf("%s: the mutant of %s has no - line: what to change", m.where, m.file)
	}
	if m.from == m.to {
		return fmt.Errorf("%s: the mutant of %s changes nothing", m.where, m.file)
	}
	if len(m.test) == 0 {
		m.test = []string{"./" + filepath.ToSlash(filepath.Dir(m.file)) + "/"}
	}
	return nil
}
