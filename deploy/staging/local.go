package staging

import (
	"context"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/spindle-yarn/spindle/internal/durable"
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

// upload syncs the file to disk before it returns, as a rename that
// names it (a journal segment's) must not outlive its data.
func (localFS) upload(_ context.Context, dst string, src io.Reader, perm fs.FileMode) error {
	if err := durable.WriteFile(dst, src, perm); err != nil {
		return err
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

// rename syncs the directory after: the new name survives the machine.
func (localFS) rename(oldName, newName string) error { return durable.Rename(oldName, newName) }

func (localFS) readFile(name string, max int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

func (localFS) readRange(name string, off, n int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.NewSectionReader(f, off, n))
}

func (localFS) close() error { return nil }
