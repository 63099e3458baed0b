package docs_test

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// images are the kinds of file a page shows.
var images = map[string]bool{".png": true, ".svg": true, ".jpg": true, ".gif": true}

// docs/README.md lists every file in docs/: each page is linked from it,
// each image is shown or linked by some page here, and the only other
// files are this checker's tests (*_test.go).
func TestDocsIndexListsEveryFile(t *testing.T) {
	m := repo(t)
	entries, err := os.ReadDir(filepath.Join(m.root, "docs"))
	if err != nil {
		t.Fatal(err)
	}
	index := readPage(t, m.root, "docs/README.md")
	listed := linkedFiles(index)
	shown := map[string]bool{}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".md") {
			for name := range linkedFiles(readPage(t, m.root, "docs/"+e.Name())) {
				shown[name] = true
			}
		}
	}
	for _, e := range entries {
		name, ext := e.Name(), path.Ext(e.Name())
		switch {
		case e.IsDir():
			t.Errorf("docs/%s: a directory; docs/ holds pages, their images and this checker only", name)
		case name == "README.md" || strings.HasSuffix(name, "_test.go"):
		case ext == ".md" && !listed[name]:
			t.Errorf("docs/%s: a page that %s does not list", name, index.path)
		case images[ext] && !shown[name]:
			t.Errorf("docs/%s: an image no page in docs/ shows or links", name)
		case ext != ".md" && !images[ext]:
			t.Errorf("docs/%s: neither a page, an image nor this checker's test", name)
		}
	}
}

// linkedFiles are the names of the files in the page's directory that its
// links and images point to.
func linkedFiles(p *page) map[string]bool {
	names := map[string]bool{}
	for _, l := range p.links() {
		target, _, _ := strings.Cut(l.text, "#")
		if !strings.Contains(target, "/") {
			names[target] = true
		}
	}
	return names
}
