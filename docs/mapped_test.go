package docs_test

import (
	"path"
	"regexp"
	"strings"
	"testing"
)

// The product's top-level directories, whose every package the map names.
var mappedDirs = []string{"am", "deploy", "executor", "scheduler", "yarnpb", "internal", "launcher", "cmd"}

var docsPage = regexp.MustCompile(`docs/[a-z0-9-]+\.md`)

// docs/architecture.md names every package of the product: by its path
// (am/core), in a qualified name (deploy/localmode.App), or, for a
// "dir/..." family in the layers table, by its path under dir in that row
// or in a page the row points to (yarnpb/... and docs/yarnpb.md).
func TestArchitectureNamesEveryPackage(t *testing.T) {
	m := repo(t)
	p := readPage(t, m.root, "docs/architecture.md")
	named := map[string]bool{}
	for _, s := range p.spans(0, len(p.text)) {
		named[m.packageOf(s.text)] = true
	}
	l, _ := m.readLayers(p)
	for family, row := range l.families {
		for _, rel := range m.namedInRow(t, l.rows[row], family) {
			named[rel] = true
		}
	}
	for _, rel := range m.sortedPackages() {
		if !named[rel] && inMappedDir(rel) {
			t.Errorf("%s: package %s is named nowhere (a row of the layers table or the text)", p.path, rel)
		}
	}
}

// packageOf is the package a code span names: a path (am/core, am/core/),
// or a path-qualified Go name's (deploy/localmode.App); "" for none.
func (m *module) packageOf(s string) string {
	s = strings.TrimSuffix(s, "/")
	if m.pkgs[s] != nil {
		return s
	}
	dir, last := path.Split(s)
	if name, _, ok := strings.Cut(last, "."); ok && dir != "" && m.pkgs[dir+name] != nil {
		return dir + name
	}
	return ""
}

// namedInRow are the packages of a family that its row of the layers
// table, or a page the row points to, names by their path under the
// family's directory.
func (m *module) namedInRow(t *testing.T, cells []mention, family string) []string {
	var spans []mention
	for _, c := range cells {
		spans = append(spans, c.spansIn()...)
		for _, doc := range docsPage.FindAllString(c.text, -1) {
			linked := readPage(t, m.root, doc)
			spans = append(spans, linked.spans(0, len(linked.text))...)
		}
	}
	var rels []string
	for _, s := range spans {
		rel := family + "/" + strings.TrimSuffix(s.text, "/")
		if m.pkgs[rel] != nil {
			rels = append(rels, rel)
		}
	}
	return rels
}

func inMappedDir(rel string) bool {
	for _, dir := range mappedDirs {
		if hasPrefixDir(rel, dir) {
			return true
		}
	}
	return false
}
