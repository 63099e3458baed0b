// Command puritycheck refuses, in the decision cores, what would make them
// impure (docs/architecture.md, Principles): I/O, logging, locks and
// networking imports, clock reads and timers, and go statements. It reads
// the Go syntax tree, so an aliased import (import t "time"; t.Now()) or a
// clock read taken as a value (f := time.Now) is caught as a call is.
//
//	puritycheck -root DIR PATH...
//
// Each PATH (relative to DIR) is a directory, walked with its
// subdirectories, or a .go file. Test files (_test.go) and testdata are
// not checked: tests read their scripts from disk, and a test's clock is
// its own business; a test harness such as am/core/coretest is not a test
// file, and is checked. Each finding is printed as file:line: what, and
// any finding exits 1.
package main

import "github.com/spindle-yarn/spindle/tools/internal/srccheck"

func main() {
	root, paths := srccheck.Args("puritycheck -root DIR PATH...")
	var findings []Finding
	for _, p := range paths {
		f, err := CheckPath(root, p)
		srccheck.ExitOnError("puritycheck", err)
		findings = append(findings, f...)
	}
	srccheck.Finish(findings, "the decision cores must stay pure (docs/architecture.md); findings: %d")
}

// CheckPath checks path (a directory, walked, or a .go file) under root;
// testdata below path is not checked.
func CheckPath(root, path string) ([]Finding, error) {
	var findings []Finding
	err := srccheck.Walk(root, path, func(dir string) bool { return dir == "testdata" }, func(rel string, src []byte) error {
		f, err := CheckFile(rel, src)
		findings = append(findings, f...)
		return err
	})
	return findings, err
}
