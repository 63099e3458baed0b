package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
)

// Finding is one impure thing, where it is.
type Finding struct {
	Pos  token.Position
	What string
}

func (f Finding) String() string { return fmt.Sprintf("%s:%d: %s", f.Pos.Filename, f.Pos.Line, f.What) }

// forbiddenImport says why path may not be imported by a core, or "".
func forbiddenImport(path string) string {
	for _, p := range []string{"os", "net", "log", "sync", "syscall"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return "imports " + path + ": I/O, networking, logging and locks belong to the caller"
		}
	}
	for _, p := range []string{"logrus", "yarnpb", "google.golang.org/grpc", "colinmarc/hdfs"} {
		if strings.Contains(path, p) {
			return "imports " + path + ": logging and RPC belong to the caller"
		}
	}
	return ""
}

// clockFuncs are the time package's functions that read the clock or
// start a timer: a core takes now as an input and says when it next
// needs a call instead.
var clockFuncs = map[string]bool{
	"Now": true, "Sleep": true, "After": true, "Tick": true, "NewTimer": true,
	"NewTicker": true, "AfterFunc": true, "Since": true, "Until": true,
}

// CheckFile checks one Go source, named name in its findings. A local
// name that shadows the time package's is taken for the package: a core
// has no reason for the confusion, and renaming it is cheap.
func CheckFile(name string, src []byte) ([]Finding, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var findings []Finding
	add := func(n ast.Node, what string) {
		findings = append(findings, Finding{Pos: fset.Position(n.Pos()), What: what})
	}
	timeNames := map[string]bool{}
	for _, imp := range file.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: import %s: %v", name, imp.Path.Value, err)
		}
		if why := forbiddenImport(path); why != "" {
			add(imp, why)
		}
		if path != "time" {
			continue
		}
		switch {
		case imp.Name == nil:
			timeNames["time"] = true
		case imp.Name.Name == ".":
			add(imp, `imports "time" with a dot: its clock reads could not be told apart`)
		default:
			timeNames[imp.Name.Name] = true
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			add(n, "a go statement: a core starts no goroutine")
		case *ast.SelectorExpr:
			if pkg, ok := n.X.(*ast.Ident); ok && timeNames[pkg.Name] && clockFuncs[n.Sel.Name] {
				add(n, "time."+n.Sel.Name+": a core reads no clock and starts no timer; now is an input")
			}
		}
		return true
	})
	return findings, nil
}
