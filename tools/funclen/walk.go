package main

import (
	"strings"

	"github.com/spindle-yarn/spindle/tools/internal/srccheck"
)

// CheckPath checks path (a directory, walked, or a .go file) under root,
// reporting every function longer than limit lines.
func CheckPath(root, path string, limit int) ([]Finding, error) {
	var findings []Finding
	err := srccheck.Walk(root, path, skippedDir, func(rel string, src []byte) error {
		f, err := CheckFile(rel, src, limit)
		findings = append(findings, f...)
		return err
	})
	return findings, err
}

// skippedDir says whether the walk leaves a directory out: what the go
// tool leaves out of a module's packages (testdata, ".x", "_x"), and
// vendored code, which is not ours to split.
func skippedDir(name string) bool {
	return name == "testdata" || name == "vendor" ||
		strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}
