package docs_test

import (
	"bufio"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const modulePath = "github.com/spindle-yarn/spindle"

// module is the repository as the docs may name it: its files, and each
// package's declarations read with go/build and go/parser from its non-test
// files. Nothing is compiled, so a broken package still shows its names.
type module struct {
	root    string
	fset    *token.FileSet
	pkgs    map[string]*pkg   // by path relative to the root: "am/core"
	byName  map[string][]*pkg // by package clause; main packages left out
	types   map[string][]*pkg // the packages declaring a type of this name
	names   map[string]bool   // every name declared: top level, fields, methods
	tests   map[string]bool   // every test, fuzz and benchmark function
	files   map[string]bool   // every file's base name, to find "status_sender.go"
	ignored []string          // build outputs (.gitignore's anchored dirs): "bin"
}

// pkg is one package's declarations.
type pkg struct {
	rel         string
	name        string
	testOnly    bool     // only _test.go files: docs/ itself
	imports     []string // module packages its non-test files import, relative
	testImports []string // and its tests
	decls       map[string]bool
	members     map[string]map[string]ast.Expr // type → field or method → field's type (nil: a method)
	embeds      map[string][]ast.Expr          // type → its embedded fields' types
	files       []*ast.File
}

var (
	loadOnce   sync.Once
	loaded     *module
	loadFailed error
)

// repo reads the module once for every test in this package.
func repo(t *testing.T) *module {
	t.Helper()
	loadOnce.Do(func() { loaded, loadFailed = loadModule("..") })
	if loadFailed != nil {
		t.Fatal(loadFailed)
	}
	return loaded
}

func loadModule(dir string) (*module, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	m := &module{root: root, fset: token.NewFileSet(), pkgs: map[string]*pkg{}, byName: map[string][]*pkg{},
		types: map[string][]*pkg{}, names: map[string]bool{}, tests: map[string]bool{}, files: map[string]bool{}}
	if m.ignored, err = anchoredIgnores(filepath.Join(root, ".gitignore")); err != nil {
		return nil, err
	}
	err = filepath.WalkDir(root, func(path string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(strings.TrimPrefix(path, root), string(filepath.Separator)))
		if !e.IsDir() {
			m.files[e.Name()] = true
			return nil
		}
		if rel != "" && m.skipDir(rel, e.Name()) {
			return filepath.SkipDir
		}
		return m.addPackage(path, rel)
	})
	return m, err
}

// skipDir says which directories hold no package of this module, as go
// list sees it (testdata, _ and . names, other modules), nor anything of
// the repository's own (build outputs).
func (m *module) skipDir(rel, name string) bool {
	if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || m.isBuildOutput(rel) {
		return true
	}
	_, err := os.Stat(filepath.Join(m.root, rel, "go.mod"))
	return err == nil
}

// anchoredIgnores reads .gitignore's anchored directories ("/bin/"): the
// build's outputs, which a doc may name though a clean tree lacks them.
func anchoredIgnores(path string) ([]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // an export of the tree, not a clone: no build outputs
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	var dirs []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		if strings.HasPrefix(line, "/") && strings.HasSuffix(line, "/") && !strings.ContainsAny(line, "*?[") {
			dirs = append(dirs, strings.Trim(line, "/"))
		}
	}
	return dirs, s.Err()
}

func (m *module) isBuildOutput(rel string) bool {
	for _, dir := range m.ignored {
		if rel == dir || strings.HasPrefix(rel, dir+"/") {
			return true
		}
	}
	return false
}

func (m *module) addPackage(dir, rel string) error {
	bp, err := build.ImportDir(dir, build.ImportComment)
	var none *build.NoGoError
	if errors.As(err, &none) {
		return nil
	} else if err != nil {
		return err
	}
	p := &pkg{rel: rel, name: bp.Name, testOnly: len(bp.GoFiles) == 0, decls: map[string]bool{},
		members: map[string]map[string]ast.Expr{}, embeds: map[string][]ast.Expr{},
		imports: moduleImports(bp.Imports), testImports: moduleImports(append(bp.TestImports, bp.XTestImports...))}
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(m.fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		p.files = append(p.files, f)
		m.declare(p, f)
	}
	for _, name := range append(bp.TestGoFiles, bp.XTestGoFiles...) {
		if err := m.addTests(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	m.pkgs[rel] = p
	if p.name != "main" && !p.testOnly {
		m.byName[p.name] = append(m.byName[p.name], p)
	}
	return nil
}

// moduleImports keeps the module's own packages, relative to its root.
func moduleImports(paths []string) []string {
	var rel []string
	for _, path := range paths {
		if r, ok := strings.CutPrefix(path, modulePath+"/"); ok {
			rel = append(rel, r)
		}
	}
	return rel
}

// addTests records a test file's test, fuzz and benchmark functions.
func (m *module) addTests(file string) error {
	f, err := parser.ParseFile(m.fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && testName.MatchString(fn.Name.Name) {
			m.tests[fn.Name.Name] = true
		}
	}
	return nil
}

// pos is where a node is, as error messages name it: "am/core/jobs.go:130".
func (m *module) pos(n ast.Node) string {
	at := m.fset.Position(n.Pos())
	rel, err := filepath.Rel(m.root, at.Filename)
	if err != nil {
		rel = at.Filename
	}
	return fmt.Sprintf("%s:%d", filepath.ToSlash(rel), at.Line)
}
