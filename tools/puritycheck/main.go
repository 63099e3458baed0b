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

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	root := flag.String("root", ".", "the repository: PATHs and findings are relative to it")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: puritycheck -root DIR PATH...")
		os.Exit(2)
	}
	var findings []Finding
	for _, p := range flag.Args() {
		f, err := CheckPath(*root, p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "puritycheck:", err)
			os.Exit(2)
		}
		findings = append(findings, f...)
	}
	for _, f := range findings {
		fmt.Println(f)
	}
	if len(findings) > 0 {
		fmt.Printf("the decision cores must stay pure (docs/architecture.md); findings: %d\n", len(findings))
		os.Exit(1)
	}
}

// CheckPath checks path (a directory, walked, or a .go file) under root.
func CheckPath(root, path string) ([]Finding, error) {
	var findings []Finding
	err := filepath.WalkDir(filepath.Join(root, path), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" && p != filepath.Join(root, path) {
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
		f, err := CheckFile(rel, src)
		findings = append(findings, f...)
		return err
	})
	return findings, err
}

// checked says whether a file is checked: Go sources other than tests.
func checked(p string) bool {
	return filepath.Ext(p) == ".go" && !isTest(p)
}

func isTest(p string) bool {
	return len(p) > len("_test.go") && p[len(p)-len("_test.go"):] == "_test.go"
}
