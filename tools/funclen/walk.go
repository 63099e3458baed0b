package main

import (
	"os"
	"path/filepath"
	"strings"
)

// CheckPath checks path (a directory, walked, or a .go file) under root,
// reporting every function longer than limit lines.
func CheckPath(root, path string, limit int) ([]Finding, error) {
	var findings []Finding
	start := filepath.Join(root, path)
	err := filepath.WalkDir(start, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != start && skippedDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !checked(p) {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
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

// checked says whether a file is checked: Go sources other than tests.
func checked(p string) bool {
	return filepath.Ext(p) == ".go" && !strings.HasSuffix(p, "_test.go")
}
