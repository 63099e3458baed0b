// Command helpercheck holds the integration tests' helpers to their
// layout (docs/testing.md, Integration test helpers): a helper that more
// than one file uses lives in a helpers_*_test.go file, named by its
// concept, and each helper is written once.
//
//	helpercheck -root DIR PATH...
//
// Each PATH (relative to DIR) is a directory of Go files, not walked
// further. In each package it finds
//
//   - a top-level function, type, variable or constant of a test file
//     other than a helpers file that another file of the package names;
//   - a method such a file declares on a type of another file (a
//     helpers file's) whose name another file selects (x.name): without
//     type information that file may call it, so it is taken to (a
//     method of a type of its own file goes where the type goes);
//   - a test in a helpers file, and a helper there that no file names;
//
// and, across all the PATHs, two functions with the same signature and
// body, their own parameters' and locals' names aside. Each finding is
// printed as file:line: what, and any finding exits 1.
package main

import "github.com/spindle-yarn/spindle/tools/internal/srccheck"

func main() {
	root, dirs := srccheck.Args("helpercheck -root DIR PATH...")
	findings, err := Check(root, dirs)
	srccheck.ExitOnError("helpercheck", err)
	srccheck.Finish(findings, "integration helpers live in helpers_*_test.go files, each once (docs/testing.md); findings: %d")
}
