package docs_test

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// am/core/doc.go's list of the caller's duties names every method of
// *core.Core that feeds it an input. Inputs are the commands among its
// exported methods: those that return nothing or end in an error
// (Statuses, Register, Submit); the rest are queries (Ready, Status, Jobs).
func TestCoreDutiesNameEveryInput(t *testing.T) {
	m := repo(t)
	core := m.pkgs["am/core"]
	duties, at := m.coreDuties(core)
	if duties == "" {
		t.Fatal("am/core/doc.go: no list of the caller's duties (\"has these duties\")")
	}
	for _, f := range core.files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || receiverType(fn.Recv.List[0].Type) != "Core" || !isInput(fn) {
				continue
			}
			if !regexp.MustCompile(`\b` + fn.Name.Name + `\b`).MatchString(duties) {
				t.Errorf("%s: Core.%s feeds the core an input, but %s's duties do not name it",
					m.pos(fn), fn.Name.Name, at)
			}
		}
	}
}

// coreDuties is the package comment's list of duties: from "has these
// duties" on, and the file it is in.
func (m *module) coreDuties(core *pkg) (duties, file string) {
	for _, f := range core.files {
		if f.Doc == nil {
			continue
		}
		if _, list, ok := strings.Cut(f.Doc.Text(), "has these duties"); ok {
			return list, "am/core/" + filepath.Base(m.fset.Position(f.Package).Filename)
		}
	}
	return "", ""
}

// isInput says whether an exported method is a command: no results, or
// an error last.
func isInput(fn *ast.FuncDecl) bool {
	if !token.IsExported(fn.Name.Name) {
		return false
	}
	results := fn.Type.Results
	if results == nil || len(results.List) == 0 {
		return true
	}
	last, ok := results.List[len(results.List)-1].Type.(*ast.Ident)
	return ok && last.Name == "error"
}
