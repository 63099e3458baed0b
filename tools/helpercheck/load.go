package main

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Finding is one helper out of its place, or written twice, where it is.
type Finding struct {
	Pos  token.Position
	What string
}

func (f Finding) String() string { return fmt.Sprintf("%s:%d: %s", f.Pos.Filename, f.Pos.Line, f.What) }

// source is one parsed Go file.
type source struct {
	name string // its path, relative to the root
	file *ast.File
}

func (s source) base() string { return filepath.Base(s.name) }

func (s source) isTest() bool { return strings.HasSuffix(s.name, "_test.go") }

// isHelpers says whether the file is a helpers file: helpers_CONCEPT_test.go.
func (s source) isHelpers() bool {
	return strings.HasPrefix(s.base(), "helpers_") && s.isTest()
}

// Check checks the Go files of each directory in dirs, relative to root;
// the findings come in order of file and line.
func Check(root string, dirs []string) ([]Finding, error) {
	fset := token.NewFileSet()
	var findings []Finding
	var all []source
	for _, dir := range dirs {
		pkgs, err := parseDir(fset, root, dir)
		if err != nil {
			return nil, err
		}
		for _, name := range slices.Sorted(maps.Keys(pkgs)) {
			findings = append(findings, checkLayout(fset, pkgs[name])...)
			all = append(all, pkgs[name]...)
		}
	}
	findings = append(findings, twins(fset, all)...)
	slices.SortStableFunc(findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Pos.Filename, b.Pos.Filename), cmp.Compare(a.Pos.Line, b.Pos.Line))
	})
	return findings, nil
}

// parseDir parses dir's Go files, by package, each package's in the
// order of their names.
func parseDir(fset *token.FileSet, root, dir string) (map[string][]source, error) {
	paths, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: no Go files", dir)
	}
	slices.Sort(paths)
	pkgs := map[string][]source{}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		name := filepath.Join(dir, filepath.Base(p))
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			return nil, err
		}
		pkgs[f.Name.Name] = append(pkgs[f.Name.Name], source{name, f})
	}
	return pkgs, nil
}
