package durable

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// fsync syncs a file or directory to disk; a test counts its calls.
var fsync = (*os.File).Sync

// WriteFile copies src into a new file name (an existing one is an
// error) with mode perm, less the umask, and syncs it before closing it:
// once it returns nil the data is on disk. On an error the file is
// removed.
func WriteFile(name string, src io.Reader, perm fs.FileMode) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, src)
	if err == nil {
		err = fsync(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return errors.Join(err, os.Remove(name))
	}
	return nil
}

// Rename renames oldName to newName, replacing what newName named, and
// syncs newName's directory, so that the new name is on disk too.
func Rename(oldName, newName string) error {
	if err := os.Rename(oldName, newName); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(newName))
}

// SyncDir syncs a directory: the names made or removed in it are on
// disk once it returns nil.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = fsync(d)
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
