package staging

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"time"
)

// localFS stages on the local disk, for a cluster whose fs.defaultFS is
// file://.
type localFS struct{}

func (localFS) mkdirPrivate(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// MkdirAll leaves an existing directory alone and the umask trims a
	// new one: set the mode explicitly, as Spark does after mkdirs.
	return os.Chmod(dir, 0o700)
}

func (localFS) upload(_ context.Context, dst string, src io.Reader, perm fs.FileMode) error {
	w, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, src)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return errors.Join(err, os.Remove(dst))
	}
	if err := os.Chmod(dst, perm); err != nil { // the umask trimmed it
		return err
	}
	// Hadoop's local file system reports File.lastModified, which some
	// JVMs (Java 8 on Linux) truncate to whole seconds. A modification
	// time on a whole second reads the same in every JVM, so the
	// NodeManager's check agrees with the timestamp staged.
	mtime := time.Now().Truncate(time.Second)
	return os.Chtimes(dst, mtime, mtime)
}

func (localFS) stat(name string) (fs.FileInfo, error) { return os.Stat(name) }

func (localFS) readDir(dir string) ([]fs.FileInfo, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]fs.FileInfo, 0, len(entries))
	for _, e := range entries {
		if info, err := e.Info(); err == nil { // gone meanwhile: skip it
			out = append(out, info)
		}
	}
	return out, nil
}

func (localFS) removeAll(name string) error { return os.RemoveAll(name) }

func (localFS) rename(oldName, newName string) error { return os.Rename(oldName, newName) }

func (localFS) readFile(name string, max int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

func (localFS) close() error { return nil }
