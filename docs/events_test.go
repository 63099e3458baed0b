package docs_test

import (
	"go/ast"
	"testing"
)

const eventsHeader = "| event kind |"

// The kinds of the am/ driver's sealed event interface (the types with a
// feed(d *Driver, now time.Time) method) are the kinds docs/architecture.md
// lists, both ways.
func TestArchitectureListsEveryEventKind(t *testing.T) {
	m := repo(t)
	p := readPage(t, m.root, "docs/architecture.md")
	rows, ok := p.table(eventsHeader)
	if !ok {
		t.Fatalf("%s: no table of the loop's event kinds (%s)", p.path, eventsHeader)
	}
	listed := map[string]bool{}
	for _, cells := range rows {
		for _, s := range cells[0].spansIn() {
			listed[s.text] = true
		}
	}
	kinds := m.eventKinds()
	for kind, at := range kinds {
		if !listed[kind] {
			t.Errorf("%s: event kind `%s` is not in %s's table of event kinds", m.pos(at), kind, p.path)
		}
	}
	for _, cells := range rows {
		for _, s := range cells[0].spansIn() {
			if _, ok := kinds[s.text]; !ok {
				t.Errorf("%s: `%s` is no event kind of am's loop (no feed method)", s.at(), s.text)
			}
		}
	}
}

// eventKinds are the types of package am with the event interface's
// method, feed(d *Driver, now time.Time), each with its method.
func (m *module) eventKinds() map[string]*ast.FuncDecl {
	kinds := map[string]*ast.FuncDecl{}
	for _, f := range m.pkgs["am"].files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if ok && fn.Recv != nil && fn.Name.Name == "feed" && feedsTheDriver(fn.Type) {
				kinds[receiverType(fn.Recv.List[0].Type)] = fn
			}
		}
	}
	return kinds
}

// feedsTheDriver says whether a signature is (*Driver, time.Time) with no
// results.
func feedsTheDriver(fn *ast.FuncType) bool {
	var params []ast.Expr
	for _, f := range fn.Params.List {
		for range max(1, len(f.Names)) {
			params = append(params, f.Type)
		}
	}
	if len(params) != 2 || fn.Results != nil {
		return false
	}
	star, _ := params[0].(*ast.StarExpr)
	clock, _ := params[1].(*ast.SelectorExpr)
	return star != nil && typeName(star.X) == "Driver" && clock != nil && clock.Sel.Name == "Time"
}
