package local

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// UserDir is the directory under base (the system's temporary directory,
// usually) where this user's local applications keep their executors'
// working directories and task logs: base/spindle-UID, created 0700. Task
// output is the user's business, and a shared temporary directory is
// anyone's: a directory of that name that is a symbolic link, is not a
// directory, or belongs to someone else is refused, since whoever made it
// could read or replace what tasks write. One of the user's own with a
// wider mode is narrowed to 0700.
func UserDir(base string) (string, error) {
	uid := os.Geteuid()
	dir := filepath.Join(base, "spindle-"+strconv.Itoa(uid))
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("local mode's directory %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("local mode's directory %s: %w", dir, err)
	}
	switch st, _ := fi.Sys().(*syscall.Stat_t); {
	case fi.Mode()&fs.ModeSymlink != 0:
		return "", fmt.Errorf("local mode's directory %s is a symbolic link; refusing it: remove it, or set TMPDIR elsewhere", dir)
	case !fi.IsDir():
		return "", fmt.Errorf("local mode's directory %s is not a directory; refusing it: remove it, or set TMPDIR elsewhere", dir)
	case st == nil || int(st.Uid) != uid:
		owner := "unknown"
		if st != nil {
			owner = "uid " + strconv.Itoa(int(st.Uid))
		}
		return "", fmt.Errorf("local mode's directory %s belongs to %s, not to this user (uid %d); refusing it: set TMPDIR elsewhere", dir, owner, uid)
	case fi.Mode().Perm() != 0o700:
		if err := os.Chmod(dir, 0o700); err != nil {
			return "", fmt.Errorf("local mode's directory %s: %w", dir, err)
		}
	}
	return dir, nil
}

// lockName is the file in an application's directory that its driver
// holds locked while it runs, so that Prune leaves the directory alone.
const lockName = ".running"

// AppDir is one running application's directory under a UserDir.
type AppDir struct {
	Path string
	lock *os.File
}

// NewAppDir creates dir/appID and locks it for as long as the application
// runs: until Close, or this process's end, however it ends.
func NewAppDir(dir, appID string) (*AppDir, error) {
	path := filepath.Join(dir, appID)
	if err := os.Mkdir(path, 0o700); err != nil {
		return nil, fmt.Errorf("application directory: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(path, lockName), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("application directory: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("application directory %s: locking it: %w", path, err)
	}
	return &AppDir{Path: path, lock: f}, nil
}

// Close unlocks the directory and marks the time the application ended,
// from which Prune counts its age.
func (a *AppDir) Close() error {
	now := time.Now()
	os.Chtimes(a.Path, now, now)
	return a.lock.Close()
}

// Prune removes the application directories under dir (as NewAppDir
// makes them, named local-*) that no running application holds and that
// have not changed for ttl, and returns them. ttl 0 removes nothing: logs
// are then kept until the system clears its temporary directory.
func Prune(dir string, ttl time.Duration, now time.Time) ([]string, error) {
	if ttl <= 0 {
		return nil, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "local-") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		fi, err := e.Info()
		if err != nil || now.Sub(fi.ModTime()) < ttl || running(path) {
			continue
		}
		if err := os.RemoveAll(path); err != nil {
			return removed, err
		}
		removed = append(removed, path)
	}
	return removed, nil
}

// running reports whether an application holds the directory's lock.
func running(path string) bool {
	f, err := os.Open(filepath.Join(path, lockName))
	if err != nil {
		return false // an application from before locks, or broken: fair game
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return true
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}
