package localfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spindle-yarn/spindle/internal/splits"
)

// DefaultBlockSize is Hadoop's fs.local.block.size: what a local file is
// cut at when its stage splits by block or bytes.
const DefaultBlockSize = 32 << 20

// Lister lists local files; the zero value is ready, with
// DefaultBlockSize.
type Lister struct {
	BlockSize int64
}

var _ splits.Lister = Lister{}

// fileScheme prefixes a local file's URI, file:///data/x.
const fileScheme = "file://"

// List expands pattern, a file:// URI or an absolute path (listed as
// such: file:///x gives file:///x/a, /x gives /x/a).
func (l Lister) List(ctx context.Context, pattern string, limit int) ([]splits.File, error) {
	local, prefix, err := localPath(pattern)
	if err != nil {
		return nil, err
	}
	w := walk{ctx: ctx, prefix: prefix, limit: limit, blockSize: l.BlockSize}
	if w.blockSize <= 0 {
		w.blockSize = DefaultBlockSize
	}
	if !hasMeta(local) {
		err = w.named(local)
	} else {
		err = w.glob(local)
	}
	if err != nil {
		return nil, err
	}
	if len(w.files) == 0 {
		return nil, fmt.Errorf("%s: %w", pattern, splits.ErrNoMatch)
	}
	return w.files, nil
}

// localPath is pattern's path on this machine, cleaned, and what prefixes
// the paths listed.
func localPath(pattern string) (local, prefix string, err error) {
	local = pattern
	if strings.HasPrefix(pattern, fileScheme) {
		local, prefix = pattern[len(fileScheme):], fileScheme
	} else if strings.Contains(pattern, "://") {
		return "", "", fmt.Errorf("%s: not a local path: want file:///PATH or /PATH", pattern)
	}
	if !strings.HasPrefix(local, "/") {
		return "", "", fmt.Errorf("%s: not an absolute path (file:///PATH, or /PATH)", pattern)
	}
	return filepath.Clean(local), prefix, nil
}

func hasMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }

// hidden names are skipped when a glob or a directory brings them in:
// Hadoop's FileInputFormat's hiddenFileFilter (_SUCCESS, _temporary,
// .crc files, editors' dotfiles).
func hidden(name string) bool { return strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") }

// walk gathers the files of one pattern.
type walk struct {
	ctx       context.Context
	prefix    string
	limit     int
	blockSize int64
	files     []splits.File
}

// named lists a path without globs: a file, or a directory's files.
// Missing, it is an error.
func (w *walk) named(p string) error {
	info, err := os.Stat(p)
	if err != nil {
		return w.fail(p, err)
	}
	return w.add(p, info)
}

// add lists p, a file, or the files below p, a directory.
func (w *walk) add(p string, info fs.FileInfo) error {
	switch {
	case info.Mode().IsRegular():
		if len(w.files) == w.limit {
			return fmt.Errorf("%s: more than %d files", w.show(p), w.limit)
		}
		w.files = append(w.files, splits.File{Path: w.show(p), Length: info.Size(), BlockSize: w.blockSize})
	case info.IsDir():
		return w.dir(p)
	}
	return nil // a socket, a device: not data
}

// dir lists the files below directory p, in name order, skipping hidden
// names and not following links to directories (which could loop).
func (w *walk) dir(p string) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return w.fail(p, err)
	}
	for _, e := range entries {
		if hidden(e.Name()) {
			continue
		}
		child := filepath.Join(p, e.Name())
		info, err := entryInfo(child, e)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since, or a dangling link
		}
		if err != nil {
			return w.fail(child, err)
		}
		if err := w.add(child, info); err != nil {
			return err
		}
	}
	return nil
}

// entryInfo is e's, a link's target's for a link to a file, or the link's
// own for one to a directory (not followed).
func entryInfo(p string, e fs.DirEntry) (fs.FileInfo, error) {
	if e.Type()&fs.ModeSymlink == 0 {
		return e.Info()
	}
	info, err := os.Stat(p)
	if err == nil && info.IsDir() {
		return e.Info()
	}
	return info, err
}

// fail names p, as the user wrote it, in err.
func (w *walk) fail(p string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %w", w.show(p), err)
}

// show is local path p as it is listed: with the pattern's scheme.
func (w *walk) show(p string) string { return w.prefix + p }
