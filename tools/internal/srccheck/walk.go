package srccheck

import (
	"os"
	"path/filepath"
	"strings"
)

// Walk calls visit with each Go file under path, relative to root (a
// directory, walked with its subdirectories, or a .go file), giving its
// path relative to root and its text. Test files (_test.go) are left out,
// and so is every subdirectory whose name skip says to leave out (path
// itself never is).
func Walk(root, path string, skip func(dir string) bool, visit func(rel string, src []byte) error) error {
	start := filepath.Join(root, path)
	return filepath.WalkDir(start, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != start && skip(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Ext(p) != ".go" || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return visit(rel, src)
	})
}
