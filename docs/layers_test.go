package docs_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

const layersHeader = "| layer | packages | what it is |"

// layers is docs/architecture.md's layers table: the row of each package
// it names, and of each "dir/..." family, 0 at the top.
type layers struct {
	row      map[string]int
	families map[string]int
	rows     [][]mention // the table's cells
}

// readLayers reads the table, returning a message for each word of its
// packages column that is neither a package, a family of packages, a
// qualified Go name (settings.Core, which checkPage resolves) nor a
// command (`spindle am`).
func (m *module) readLayers(p *page) (layers, []string) {
	l := layers{row: map[string]int{}, families: map[string]int{}}
	rows, ok := p.table(layersHeader)
	if !ok {
		return l, []string{p.path + ": no layers table (" + layersHeader + ")"}
	}
	l.rows = rows
	var problems []string
	for i, cells := range rows {
		if len(cells) < 3 {
			problems = append(problems, fmt.Sprintf("%s: the layers table's row has %d cells, not 3", p.at(cells[0].off), len(cells)))
			continue
		}
		for _, s := range cells[1].spansIn() {
			if family, ok := strings.CutSuffix(s.text, "/..."); ok {
				l.families[family] = i
			} else if m.pkgs[s.text] != nil {
				l.row[s.text] = i
			} else if !identChain.MatchString(s.text) && !strings.Contains(s.text, " ") {
				problems = append(problems, fmt.Sprintf("%s: `%s` in the layers table is no package", s.at(), s.text))
			}
		}
	}
	return l, problems
}

// of is the row of a package: its own, else its family's.
func (l layers) of(rel string) (int, bool) {
	if r, ok := l.row[rel]; ok {
		return r, true
	}
	for family, r := range l.families {
		if hasPrefixDir(rel, family) {
			return r, true
		}
	}
	return 0, false
}

// outsideLayers are the packages of tests, not of the product: the
// integration suite and this checker.
func (m *module) outsideLayers(p *pkg) bool {
	return hasPrefixDir(p.rel, "integration") || p.testOnly
}

// docs/architecture.md's layers are the code's: every package is in the
// table (the tests' packages aside), its imports point down it, never up,
// and only cmd/ imports the CLI package deploy, as the page says.
func TestArchitectureLayersAreTheImports(t *testing.T) {
	m := repo(t)
	p := readPage(t, m.root, "docs/architecture.md")
	l, problems := m.readLayers(p)
	for _, problem := range problems {
		t.Error(problem)
	}
	for _, rel := range m.sortedPackages() {
		q := m.pkgs[rel]
		for _, imp := range append(q.imports, q.testImports...) {
			if imp == "deploy" && rel != "cmd/spindle" && rel != "deploy" {
				t.Errorf("%s imports the CLI package deploy; %s says only cmd/ does", rel, p.path)
			}
		}
		if m.outsideLayers(q) {
			continue
		}
		from, ok := l.of(rel)
		if !ok {
			t.Errorf("%s: package %s is in no row of the layers table", p.path, rel)
			continue
		}
		for _, imp := range q.imports {
			if to, ok := l.of(imp); ok && to < from {
				t.Errorf("%s: %s imports %s, a layer above it", p.at(l.rows[from][0].off), rel, imp)
			}
		}
	}
}

func (m *module) sortedPackages() []string {
	rels := make([]string, 0, len(m.pkgs))
	for rel := range m.pkgs {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	return rels
}
