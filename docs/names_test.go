package docs_test

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The pages that map the code: every path, package and Go name they
// mention must exist.
var mapPages = []string{"docs/architecture.md", "README.md", "docs/README.md"}

// Each map page's code spans, link targets and bare paths name things
// that exist: files and directories, packages, and Go declarations.
func TestMapPagesNameWhatExists(t *testing.T) {
	m := repo(t)
	for _, rel := range mapPages {
		for _, problem := range m.checkPage(readPage(t, m.root, rel), true) {
			t.Error(problem)
		}
	}
}

// The other pages in docs/ name Go's words and others' (settings' suffixes,
// JSON fields, Java classes) too freely for their Go names to be checked,
// but the repository's paths, packages, links and tests they name exist.
func TestPagesNameFilesThatExist(t *testing.T) {
	m := repo(t)
	pages, err := filepath.Glob(filepath.Join(m.root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, abs := range pages {
		rel := "docs/" + filepath.Base(abs)
		if slices.Contains(mapPages, rel) {
			continue
		}
		for _, problem := range m.checkPage(readPage(t, m.root, rel), false) {
			t.Error(problem)
		}
	}
}

// checkPage returns a message for each name p mentions that does not
// exist: paths, links and tests, and with goNames Go names and bare file
// names too.
func (m *module) checkPage(p *page, goNames bool) []string {
	var problems []string
	report := func(at mention, why string) {
		problems = append(problems, fmt.Sprintf("%s: `%s` %s", at.at(), at.text, why))
	}
	for _, s := range p.spans(0, len(p.text)) {
		if why := m.checkSpan(p, s.text, goNames); why != "" {
			report(s, why)
		}
	}
	for _, l := range p.links() {
		if why := m.checkLink(p, l.text); why != "" {
			report(l, why)
		}
	}
	for _, w := range bareWords(p) {
		if why := m.checkPathWord(p, w.text); why != "" {
			report(w, why)
		}
	}
	return problems
}

var (
	// identChain is a Go name qualified by a package or a type:
	// core.Ready, Ready.Next, core.Config.HeartbeatTimeout.
	identChain = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$`)
	// mixedCaps is a bare word that can only be a Go name: PortPicked,
	// observeTurn (not RANK, rejoining or NAME_ADDRESSES).
	mixedCaps = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*$`)
	// pathWord is a word of prose or a command that may be a path.
	pathWord = regexp.MustCompile(`[A-Za-z0-9_.*-]+(/[A-Za-z0-9_.*-]*)+`)
	// callForm is a call written out: core.Ready(now).
	callForm = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_.]*)\(.*\)$`)
	// bareFile is a file's name without its directory (not a suffix
	// such as _test.go).
	bareFile = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	// testName is a test function, or those of a prefix: TestFault*.
	testName = regexp.MustCompile(`^(Test|Fuzz|Benchmark)[A-Za-z0-9_]*\*?$`)
)

// sourceExts are the file kinds whose bare names (no directory) the pages
// use for the repository's files; others (job.yaml) are often examples.
var sourceExts = map[string]bool{".go": true, ".proto": true, ".md": true, ".sh": true}

// checkSpan says what is wrong with a code span's name, "" if nothing or
// if it is no name of the repository's (a command, a setting, a value).
func (m *module) checkSpan(p *page, s string, goNames bool) string {
	if call := callForm.FindStringSubmatch(s); call != nil {
		s = call[1] // core.Ready(now) names core.Ready
	}
	switch {
	case strings.ContainsAny(s, " "):
		for _, w := range strings.Fields(s) { // a command: its paths
			if why := m.checkPathWord(p, w); why != "" {
				return "names `" + w + "`, which " + why
			}
		}
	case m.isPath(s):
		return m.checkPath(p, s)
	case testName.MatchString(s):
		return m.checkTestName(s)
	case !goNames: // the rest are Go names and bare file names
	case bareFile.MatchString(s) && sourceExts[path.Ext(s)]:
		if !m.files[s] && !m.exists(p, s) {
			return "is no file of the repository"
		}
	case identChain.MatchString(s):
		return m.checkIdent(s)
	case mixedCaps.MatchString(s) && strings.ToLower(s) != s && strings.ToUpper(s) != s:
		if !m.names[s] {
			return "is declared nowhere in the module"
		}
	}
	return ""
}

// isPath says whether w is written as a path of the repository's: it has
// a directory and starts at a top-level entry, or ends in a source file's
// extension ("dir/..." for a family of packages).
func (m *module) isPath(w string) bool {
	if !strings.Contains(w, "/") || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../") {
		return false // not a path, or one from the user's working directory
	}
	first, _, _ := strings.Cut(w, "/")
	if _, err := os.Lstat(filepath.Join(m.root, first)); err == nil || m.isBuildOutput(first) {
		return true
	}
	return sourceExts[path.Ext(w)]
}

// checkPathWord checks a word of prose or of a command if it is a path.
func (m *module) checkPathWord(p *page, w string) string {
	w = strings.TrimRight(w, ".,:;")
	if !m.isPath(w) {
		return ""
	}
	return m.checkPath(p, w)
}

// checkPath checks a path (from the root, or from the page's directory),
// a "dir/..." family, a glob, or a package-qualified name
// (deploy/localmode.App, am/journal.Writer.Run).
func (m *module) checkPath(p *page, s string) string {
	if family, ok := strings.CutSuffix(s, "/..."); ok {
		for rel := range m.pkgs {
			if hasPrefixDir(rel, family) {
				return ""
			}
		}
		return "names no package"
	}
	if strings.ContainsAny(s, "*?[") {
		if matches, _ := filepath.Glob(filepath.Join(m.root, s)); len(matches) == 0 {
			return "matches nothing"
		}
		return ""
	}
	clean := strings.TrimSuffix(s, "/")
	if m.exists(p, clean) || m.isBuildOutput(clean) {
		return ""
	}
	dir, last := path.Split(clean)
	if name, chain, ok := strings.Cut(last, "."); ok {
		if q := m.pkgs[dir+name]; q != nil {
			if m.resolve(q, strings.Split(chain, ".")) {
				return ""
			}
			return "names nothing in package " + q.rel
		}
	}
	return "does not exist"
}

// exists says whether rel is a file or directory from the root or from
// the page's own directory.
func (m *module) exists(p *page, rel string) bool {
	for _, base := range []string{m.root, filepath.Join(m.root, path.Dir(p.path))} {
		if _, err := os.Stat(filepath.Join(base, rel)); err == nil {
			return true
		}
	}
	return false
}

// checkTestName finds a test function, or one with a pattern's prefix.
func (m *module) checkTestName(s string) string {
	prefix, pattern := strings.CutSuffix(s, "*")
	for name := range m.tests {
		if name == s || pattern && strings.HasPrefix(name, prefix) {
			return ""
		}
	}
	return "names no test function"
}

// checkLink checks a link's target, relative to its page; addresses
// elsewhere and anchors are not the repository's.
func (m *module) checkLink(p *page, target string) string {
	target, _, _ = strings.Cut(target, "#")
	if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	if _, err := os.Stat(filepath.Join(m.root, path.Dir(p.path), target)); err != nil {
		return "links to nothing"
	}
	return ""
}

// checkIdent resolves a qualified Go name. The qualifier is a package (by
// its name) or a type (in any package); a name whose qualifier is neither
// and lower case is no Go name (spindle.yarn.mode, hadoop.rpc.protection).
func (m *module) checkIdent(s string) string {
	chain := strings.Split(s, ".")
	if pkgs := m.byName[chain[0]]; len(pkgs) > 0 {
		for _, q := range pkgs {
			if m.resolve(q, chain[1:]) {
				return ""
			}
		}
		return "names nothing in package " + pkgs[0].rel
	}
	if pkgs := m.types[chain[0]]; len(pkgs) > 0 {
		for _, q := range pkgs {
			if m.resolve(q, chain) {
				return ""
			}
		}
		return "names no member of type " + chain[0]
	}
	if unicode.IsUpper(rune(s[0])) {
		return "names a type declared nowhere in the module"
	}
	return ""
}

// bareWords are the paths written outside code in a page's prose, and in
// its fenced blocks (commands, listings).
func bareWords(p *page) []mention {
	var out []mention
	for _, text := range []string{p.prose(), fencedOnly(p)} {
		for _, loc := range pathWord.FindAllStringIndex(text, -1) {
			if strings.HasPrefix(text[loc[0]:], "//") || loc[0] > 0 && strings.ContainsRune("/$~:", rune(text[loc[0]-1])) {
				continue // an address, a variable's, or a page's absolute path
			}
			out = append(out, mention{page: p, off: loc[0], text: text[loc[0]:loc[1]]})
		}
	}
	return out
}

// fencedOnly is the page's text with everything outside fenced blocks
// blanked.
func fencedOnly(p *page) string {
	b := []byte(p.text)
	last := 0
	for _, f := range p.fences {
		blank(b, last, f[0])
		last = f[1]
	}
	blank(b, last, len(b))
	return string(b)
}
