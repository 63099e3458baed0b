// Command funclen refuses functions longer than a limit (80 lines: the
// project's style, docs/testing.md). A long function is split by meaning,
// into steps with names, not cut at the limit.
//
//	funclen -root DIR [-max N] [PATH...]
//
// Each PATH (relative to DIR, "." when none is given) is a directory,
// walked with its subdirectories, or a .go file. As the go tool does, the
// walk leaves out testdata and directories whose names begin with "." or
// "_"; it leaves out vendor too. Test files (_test.go) are not checked,
// nor generated files (Go's convention: a "// Code generated ... DO NOT
// EDIT." line before the package clause).
//
// A function declaration is measured from its func keyword to its closing
// brace. A function literal inside it is not measured apart: its lines are
// the declaration's lines already, so a long literal makes its function
// long, and measuring it too would report the same lines twice. A
// literal that stands outside any function (var f = func() {...}) is
// measured on its own, under its variable's name.
//
// Each finding is printed as file:line: name is N lines (at most MAX), and
// any finding exits 1.
package main

import (
	"flag"
	"fmt"

	"github.com/spindle-yarn/spindle/tools/internal/srccheck"
)

func main() {
	limit := flag.Int("max", 80, "the most lines a function may have")
	root, paths := srccheck.Args("funclen -root DIR [-max N] [PATH...]", ".")
	var findings []Finding
	for _, p := range paths {
		f, err := CheckPath(root, p, *limit)
		srccheck.ExitOnError("funclen", err)
		findings = append(findings, f...)
	}
	srccheck.Finish(findings, fmt.Sprintf("functions longer than %d lines: %%d; split each by meaning, into steps with names", *limit))
}
