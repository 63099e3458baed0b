package splits

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// glob lists the files pattern p matches, element by element: an element
// without meta characters is taken as written, one with them matched as
// path.Match does against the names in the directories matched so
// far (hidden names only by an element that starts with their _ or .),
// and ** matches any number of directories, none included. A directory
// matched lists the files below it.
func (w *walk) glob(p string) error {
	dirs := []string{"."}
	elems := strings.Split(p, "/")
	for i, elem := range elems {
		var next []string
		for _, d := range dirs {
			matched, err := w.step(d, elem)
			if err != nil {
				return err
			}
			next = append(next, matched...)
		}
		if len(next) > w.limit {
			return fmt.Errorf("%s: more than %d matches of %s", w.show(p), w.limit, strings.Join(elems[:i+1], "/"))
		}
		dirs = next
	}
	for _, m := range dirs {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		info, err := fs.Stat(w.fsys, m)
		if w.absent(m, err) {
			continue // a literal element after a glob: glob's own rule
		}
		if err != nil {
			return w.fail(m, err)
		}
		if err := w.add(m, info); err != nil {
			return err
		}
	}
	// A directory matched beside what is below it (/d/** matches /d
	// and /d/e) lists a file twice.
	slices.SortFunc(w.files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	w.files = slices.CompactFunc(w.files, func(a, b File) bool { return a.Path == b.Path })
	return nil
}

// step is the paths elem matches in directory d.
func (w *walk) step(d, elem string) ([]string, error) {
	if elem == "**" {
		return w.below(d, []string{d})
	}
	if !hasMeta(elem) {
		return []string{path.Join(d, elem)}, nil
	}
	if _, err := path.Match(elem, ""); err != nil {
		return nil, fmt.Errorf("%s: %v", w.show(path.Join(d, elem)), err)
	}
	entries, err := fs.ReadDir(w.fsys, d)
	if w.absent(d, err) {
		return nil, nil
	}
	if err != nil {
		return nil, w.fail(d, err)
	}
	var out []string
	for _, e := range entries {
		if hidden(e.Name()) && e.Name()[0] != elem[0] {
			continue
		}
		if ok, _ := path.Match(elem, e.Name()); ok {
			out = append(out, path.Join(d, e.Name()))
		}
	}
	return out, nil
}

// below adds to out every directory below d, depth first in name order,
// hidden ones and links not followed.
func (w *walk) below(d string, out []string) ([]string, error) {
	if err := w.ctx.Err(); err != nil {
		return nil, err
	}
	entries, err := fs.ReadDir(w.fsys, d)
	if w.absent(d, err) {
		return out, nil
	}
	if err != nil {
		return nil, w.fail(d, err)
	}
	for _, e := range entries {
		if !e.IsDir() || hidden(e.Name()) {
			continue
		}
		if len(out) > w.limit {
			return nil, fmt.Errorf("%s: more than %d directories below", w.show(d), w.limit)
		}
		if out, err = w.below(path.Join(d, e.Name()), append(out, path.Join(d, e.Name()))); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// absent reports whether err, from reading or statting p, says only that
// nothing is there for a glob to match: p does not exist, or it or a
// path it is under is a file (ENOTDIR, told by asking about the paths
// rather than by an errno, which another filesystem need not give).
func (w *walk) absent(p string, err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	for at := p; ; at = path.Dir(at) {
		info, serr := fs.Stat(w.fsys, at)
		if serr == nil {
			return !info.IsDir() // the nearest that exists
		}
		if at == "." {
			return false
		}
	}
}
