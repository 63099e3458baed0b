package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
)

// Finding is one function that is too long, where it starts.
type Finding struct {
	Pos   token.Position
	Name  string // the function's name; Type.Method for a method
	Lines int
	Limit int
}

func (f Finding) String() string {
	return fmt.Sprintf("%s:%d: %s is %d lines (at most %d)", f.Pos.Filename, f.Pos.Line, f.Name, f.Lines, f.Limit)
}

// CheckFile checks one Go source, named name in its findings, and
// reports every function in it longer than limit lines. A generated file
// has no findings: it is its generator's to shape.
func CheckFile(name string, src []byte, limit int) ([]Finding, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	if ast.IsGenerated(file) {
		return nil, nil
	}
	var findings []Finding
	measure := func(name string, from, to token.Pos) {
		start, end := fset.Position(from), fset.Position(to)
		if n := end.Line - start.Line + 1; n > limit {
			findings = append(findings, Finding{Pos: start, Name: name, Lines: n, Limit: limit})
		}
	}
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Body != nil { // one without a body is written in assembly
				measure(funcName(d), d.Pos(), d.Body.Rbrace)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				if v, ok := spec.(*ast.ValueSpec); ok {
					for i, value := range v.Values {
						if lit, ok := value.(*ast.FuncLit); ok && i < len(v.Names) {
							measure(v.Names[i].Name, lit.Pos(), lit.Body.Rbrace)
						}
					}
				}
			}
		}
	}
	return findings, nil
}

// funcName names a declared function as people say it: F, or T.M for a
// method (whether its receiver is T, *T or a generic T[K]).
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name + "." + d.Name.Name
		default:
			return d.Name.Name
		}
	}
}
