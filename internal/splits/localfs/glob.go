package localfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/spindle-yarn/spindle/internal/splits"
)

// glob lists the files pattern p matches, element by element: an element
// without meta characters is taken as written, one with them matched as
// filepath.Match does against the names in the directories matched so
// far (hidden names only by an element that starts with their _ or .),
// and ** matches any number of directories, none included. A directory
// matched lists the files below it.
func (w *walk) glob(p string) error {
	dirs := []string{"/"}
	elems := strings.Split(strings.TrimPrefix(p, "/"), "/")
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
		info, err := os.Stat(m)
		if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
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
	slices.SortFunc(w.files, func(a, b splits.File) int { return strings.Compare(a.Path, b.Path) })
	w.files = slices.CompactFunc(w.files, func(a, b splits.File) bool { return a.Path == b.Path })
	return nil
}

// step is the paths elem matches in directory d.
func (w *walk) step(d, elem string) ([]string, error) {
	if elem == "**" {
		return w.below(d, []string{d})
	}
	if !hasMeta(elem) {
		return []string{filepath.Join(d, elem)}, nil
	}
	if _, err := filepath.Match(elem, ""); err != nil {
		return nil, fmt.Errorf("%s: %v", w.show(filepath.Join(d, elem)), err)
	}
	entries, err := os.ReadDir(d)
	if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
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
		if ok, _ := filepath.Match(elem, e.Name()); ok {
			out = append(out, filepath.Join(d, e.Name()))
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
	entries, err := os.ReadDir(d)
	if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
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
		if out, err = w.below(filepath.Join(d, e.Name()), append(out, filepath.Join(d, e.Name()))); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// isNotDir reports ENOTDIR: a glob's directory that is a file.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }
