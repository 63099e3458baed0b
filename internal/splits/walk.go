package splits

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// ListFS lists pattern in fsys, a Lister's work over any filesystem that
// io/fs can read: os.DirFS for the local one (splits/localfs), an adapter
// of an HDFS client for HDFS. pattern is a path of fsys (slash-separated,
// unrooted: "." is its root), with globs (glob.go); show turns a path of
// fsys into the path listed and named in errors (file:///data/a for
// data/a). A file whose FileInfo.Sys() is a []Block (HDFS's block
// locations) has those blocks; any other is cut at blockSize with no
// hosts. The rules are Lister.List's.
func ListFS(ctx context.Context, fsys fs.FS, pattern string, show func(string) string, limit int, blockSize int64) ([]File, error) {
	w := walk{ctx: ctx, fsys: fsys, show: show, limit: limit, blockSize: blockSize}
	var err error
	switch {
	case hasBraces(pattern):
		err = w.alternatives(pattern)
	case hasMeta(pattern):
		err = w.glob(pattern)
	default:
		err = w.named(pattern)
	}
	if err != nil {
		return nil, err
	}
	if len(w.files) == 0 {
		return nil, fmt.Errorf("%s: %w", show(pattern), ErrNoMatch)
	}
	return w.files, nil
}

// alternatives lists each pattern p's {a,b} alternatives expand to, as
// a glob: one that matches nothing adds nothing.
func (w *walk) alternatives(p string) error {
	patterns, err := expandBraces(p)
	if err != nil {
		return fmt.Errorf("%s: %v", w.show(p), err)
	}
	for _, q := range patterns {
		if err := w.glob(path.Clean(q)); err != nil {
			return err
		}
	}
	return nil
}

func hasMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }

// hidden names are skipped when a glob or a directory brings them in:
// Hadoop's FileInputFormat's hiddenFileFilter (_SUCCESS, _temporary,
// .crc files, editors' dotfiles).
func hidden(name string) bool { return strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") }

// walk gathers the files of one pattern.
type walk struct {
	ctx       context.Context
	fsys      fs.FS
	show      func(string) string
	limit     int
	blockSize int64
	files     []File
}

// named lists a path without globs: a file, or a directory's files.
// Missing, it is an error.
func (w *walk) named(p string) error {
	info, err := fs.Stat(w.fsys, p)
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
		f := File{Path: w.show(p), Length: info.Size(), BlockSize: w.blockSize}
		if blocks, ok := info.Sys().([]Block); ok {
			f.Blocks = blocks
		}
		w.files = append(w.files, f)
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
	entries, err := fs.ReadDir(w.fsys, p)
	if err != nil {
		return w.fail(p, err)
	}
	for _, e := range entries {
		if hidden(e.Name()) {
			continue
		}
		child := path.Join(p, e.Name())
		info, err := w.entryInfo(child, e)
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
func (w *walk) entryInfo(p string, e fs.DirEntry) (fs.FileInfo, error) {
	if e.Type()&fs.ModeSymlink == 0 {
		return e.Info()
	}
	info, err := fs.Stat(w.fsys, p)
	if err == nil && info.IsDir() {
		return e.Info()
	}
	return info, err
}

// fail names p, as listed, in err.
func (w *walk) fail(p string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %w", w.show(p), err)
}
