package integration

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/integration/testcluster"
)

const module = "github.com/spindle-yarn/spindle/"

// listedPackage is what go list -json says of a package.
type listedPackage struct {
	ImportPath string
	Imports    []string
}

// modulePackages lists the module's packages (relative to it) and the
// module packages each imports, outside its tests.
func modulePackages(t *testing.T, root string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list -json: %v", err)
		}
		name := strings.TrimPrefix(p.ImportPath, module)
		pkgs[name] = []string{}
		for _, imp := range p.Imports {
			if rel, ok := strings.CutPrefix(imp, module); ok {
				pkgs[name] = append(pkgs[name], rel)
			}
		}
	}
	return pkgs
}

var backticked = regexp.MustCompile("`([^`]+)`")

// docLayers reads docs/architecture.md's layers table: each package it
// names (a path, or a prefix with "/...") and the row it is in, 0 at the
// top. Backticked words that are no package (am.Driver) are skipped.
func docLayers(t *testing.T, doc string, pkgs map[string][]string) (layer map[string]int, prefixes map[string]int) {
	t.Helper()
	layer, prefixes = map[string]int{}, map[string]int{}
	_, table, ok := strings.Cut(doc, "| layer | packages | what it is |\n|---|---|---|\n")
	if !ok {
		t.Fatal("docs/architecture.md has no layers table")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	for row, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 {
			t.Fatalf("the layers table's row %q", line)
		}
		for _, m := range backticked.FindAllStringSubmatch(cells[2], -1) {
			if prefix, ok := strings.CutSuffix(m[1], "/..."); ok {
				prefixes[prefix] = row
			} else if _, ok := pkgs[m[1]]; ok {
				layer[m[1]] = row
			}
		}
	}
	return layer, prefixes
}

// docs/architecture.md's layers are the code's: every package is in the
// table (integration/, these tests, aside), its imports point down it,
// never up, and only cmd/ imports the CLI package deploy, as the page
// says.
func TestArchitectureDocLayersAreTheImports(t *testing.T) {
	root := filepath.Dir(filepath.Dir(testcluster.Script()))
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	pkgs := modulePackages(t, root)
	layer, prefixes := docLayers(t, string(doc), pkgs)
	layerOf := func(p string) (int, bool) {
		if l, ok := layer[p]; ok {
			return l, true
		}
		for prefix, l := range prefixes {
			if p == prefix || strings.HasPrefix(p, prefix+"/") {
				return l, true
			}
		}
		return 0, false
	}
	names := make([]string, 0, len(pkgs))
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		if p == "integration" || strings.HasPrefix(p, "integration/") {
			continue
		}
		from, ok := layerOf(p)
		if !ok {
			t.Errorf("%s is in no row of docs/architecture.md's layers table", p)
			continue
		}
		for _, imp := range pkgs[p] {
			if to, ok := layerOf(imp); ok && to < from {
				t.Errorf("%s imports %s, a layer above it in docs/architecture.md", p, imp)
			}
			if imp == "deploy" && p != "cmd/spindle" {
				t.Errorf("%s imports the CLI package deploy; docs/architecture.md says only cmd/ does", p)
			}
		}
	}
}
