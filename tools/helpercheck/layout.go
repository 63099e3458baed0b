package main

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"
)

// decl is a top-level name a package declares: a function, type,
// variable or constant (methods are apart: they are not in its scope).
type decl struct {
	name string
	in   source
	node ast.Node // what the name's ast.Object declares
	pos  token.Pos
}

// checkLayout finds, in one package's files, helpers out of place.
func checkLayout(fset *token.FileSet, files []source) []Finding {
	var findings []Finding
	add := func(pos token.Pos, what string) {
		findings = append(findings, Finding{Pos: fset.Position(pos), What: what})
	}
	all := decls(files)
	topLevel := map[string]bool{}
	for _, d := range all {
		topLevel[d.name] = true
	}
	named := map[string]map[string]bool{}    // a package-level name → the files naming it
	selected := map[string]map[string]bool{} // a selector's name → the files selecting it
	for _, s := range files {
		for _, id := range s.file.Unresolved {
			mark(named, id.Name, s.base())
		}
		for name := range selectors(s.file, topLevel) {
			mark(selected, name, s.base())
		}
	}
	for _, d := range all {
		others := otherThan(named[d.name], d.in.base())
		switch {
		case d.in.isHelpers() && isTestFunc(d):
			add(d.pos, d.name+" is a test in a helpers file: helpers files hold helpers, tests their own files")
		case d.in.isHelpers() && len(others) == 0 && !namedWithin(d):
			add(d.pos, d.name+" is a helper no file uses")
		case d.in.isTest() && !d.in.isHelpers() && len(others) > 0:
			add(d.pos, d.name+" is used by "+strings.Join(others, ", ")+
				": a helper more than one file uses lives in a helpers_*_test.go file")
		}
	}
	return append(findings, strayMethods(fset, files, selected)...)
}

// strayMethods finds the methods a test file other than a helpers file
// declares on a type declared elsewhere (a helpers file's, say) whose
// name another file selects: without types, that file is taken to call
// it. A method of a type declared in its own file goes where the type
// goes: when other files name the type, the type is a finding.
func strayMethods(fset *token.FileSet, files []source, selected map[string]map[string]bool) []Finding {
	typeIn := map[string]string{}
	for _, d := range decls(files) {
		if _, ok := d.node.(*ast.TypeSpec); ok {
			typeIn[d.name] = d.in.base()
		}
	}
	var findings []Finding
	for _, s := range files {
		if !s.isTest() || s.isHelpers() {
			continue
		}
		for _, m := range methods(s.file) {
			recv, name := receiverType(m), m.Name.Name
			if typeIn[recv] == s.base() {
				continue
			}
			if others := otherThan(selected[name], s.base()); len(others) > 0 {
				findings = append(findings, Finding{Pos: fset.Position(m.Pos()),
					What: "method " + recv + "." + name + " may be called by " + strings.Join(others, ", ") +
						" (they select ." + name + "): a helper more than one file uses lives in a helpers_*_test.go file"})
			}
		}
	}
	return findings
}

func mark(m map[string]map[string]bool, key, file string) {
	if m[key] == nil {
		m[key] = map[string]bool{}
	}
	m[key][file] = true
}

// otherThan lists files, but for self, in order.
func otherThan(files map[string]bool, self string) []string {
	var out []string
	for f := range files {
		if f != self {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

// decls lists the package-level names files declare, in order.
func decls(files []source) []decl {
	var out []decl
	for _, s := range files {
		for _, d := range s.file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name != "init" {
					out = append(out, decl{d.Name.Name, s, d, d.Name.Pos()})
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						out = append(out, decl{spec.Name.Name, s, spec, spec.Name.Pos()})
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							if n.Name != "_" {
								out = append(out, decl{n.Name, s, spec, n.Pos()})
							}
						}
					}
				}
			}
		}
	}
	return out
}

// isTestFunc says whether d is what go test runs: TestMain, or a test,
// benchmark, fuzz target or example.
func isTestFunc(d decl) bool {
	if _, ok := d.node.(*ast.FuncDecl); !ok {
		return false
	}
	for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if strings.HasPrefix(d.name, prefix) {
			return true
		}
	}
	return false
}

// namedWithin says whether d's own file names it, but where it is declared.
func namedWithin(d decl) bool {
	found := false
	ast.Inspect(d.in.file, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Pos() != d.pos && id.Obj != nil && id.Obj.Decl == d.node && id.Obj.Name == d.name {
			found = true
		}
		return !found
	})
	return found
}

// selectors lists the names a file selects (x.name), a package's aside:
// x is an imported package's name when it is declared neither in the
// file nor at the package's top level.
func selectors(f *ast.File, topLevel map[string]bool) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); !ok || x.Obj != nil || topLevel[x.Name] {
				out[sel.Sel.Name] = true
			}
		}
		return true
	})
	return out
}

// methods lists a file's methods.
func methods(f *ast.File) []*ast.FuncDecl {
	var out []*ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
			out = append(out, fd)
		}
	}
	return out
}

// receiverType names a method's receiver's type, without * or type
// parameters.
func receiverType(m *ast.FuncDecl) string {
	t := m.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}
