package main

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
)

// twins finds functions written twice: two with the same receiver type,
// signature and body once each one's own names (its receiver,
// parameters, results and locals) are numbered in order of appearance.
// Each later one is reported, naming the first.
func twins(fset *token.FileSet, files []source) []Finding {
	var findings []Finding
	first := map[string]*ast.FuncDecl{}
	for _, s := range files {
		for _, d := range s.file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			key := canonical(fset, fd)
			if f, ok := first[key]; ok {
				p := fset.Position(f.Pos())
				findings = append(findings, Finding{Pos: fset.Position(fd.Pos()),
					What: fd.Name.Name + " does what " + f.Name.Name + " (" + p.Filename + ":" + itoa(p.Line) + ") does: keep one"})
				continue
			}
			first[key] = fd
		}
	}
	return findings
}

// canonical prints fd without its name and comments, its own names
// numbered. It renames them in a copy of fd's syntax.
func canonical(fset *token.FileSet, fd *ast.FuncDecl) string {
	own := map[*ast.Object]string{}
	renamed := map[*ast.Ident]string{}
	ast.Inspect(fd, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || id.Obj == nil || id.Obj.Pos() < fd.Pos() || id.Obj.Pos() >= fd.End() {
			return true
		}
		if _, seen := own[id.Obj]; !seen {
			own[id.Obj] = "v" + itoa(len(own))
		}
		renamed[id] = own[id.Obj]
		return true
	})
	restore := map[*ast.Ident]string{}
	for id, name := range renamed {
		restore[id] = id.Name
		id.Name = name
	}
	defer func() {
		for id, name := range restore {
			id.Name = name
		}
	}()
	anon := *fd
	anon.Doc = nil
	anon.Name = ast.NewIdent("_")
	var b bytes.Buffer
	printer.Fprint(&b, fset, &anon)
	return b.String()
}
