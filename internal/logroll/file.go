package logroll

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Options say when a File rolls and what it keeps.
type Options struct {
	// MaxBytes is the most a file holds: a write that would take it past
	// MaxBytes goes to a fresh file (a single write larger than MaxBytes
	// is split, so that no file is ever larger). 0: never rolls.
	MaxBytes int64
	// Keep is how many old files are kept, NAME.1 (the newest) to
	// NAME.Keep. 0 keeps none: at the cap the log starts again, empty.
	Keep int
	// Perm is a new file's permissions, before the umask (0: 0600). A
	// YARN container's logs are read by the NodeManager's group for log
	// aggregation, as the files its shell redirections create are.
	Perm os.FileMode
}

// File is a log file that rolls over by Options. Its methods are safe
// for concurrent use.
type File struct {
	path string
	opts Options

	mu     sync.Mutex
	f      *os.File
	size   int64
	stderr bool // the current file is the process's standard error (Stderr)
}

// Open opens the log at path for appending, creating it if need be: a
// process started again goes on where the last one stopped, and rolls
// when the file it finds reaches the cap. Old files beyond Keep, left by
// an earlier process that kept more, are removed.
func Open(path string, opts Options) (*File, error) {
	if opts.MaxBytes < 0 || opts.Keep < 0 {
		return nil, fmt.Errorf("log %s: want a cap of 0 or more bytes and 0 or more old files, got %d and %d", path, opts.MaxBytes, opts.Keep)
	}
	if opts.Perm == 0 {
		opts.Perm = 0o600
	}
	l := &File{path: path, opts: opts}
	if err := l.open(); err != nil {
		return nil, err
	}
	if err := l.removeBeyondKeep(); err != nil {
		l.f.Close()
		return nil, err
	}
	return l, nil
}

// Name is the current file's path.
func (l *File) Name() string { return l.path }

func (l *File) open() error {
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, l.opts.Perm)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	if l.stderr {
		if err := toStderr(f); err != nil {
			f.Close()
			return fmt.Errorf("log %s: making it standard error: %w", l.path, err)
		}
	}
	l.f, l.size = f, st.Size()
	return nil
}

// Stderr makes the current file the process's standard error too (file
// descriptor 2), now and after every roll, so that what the runtime
// writes there (a panic) lands after the last log line. What is written
// to standard error directly does not count toward the cap.
func (l *File) Stderr() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := toStderr(l.f); err != nil {
		return fmt.Errorf("log %s: making it standard error: %w", l.path, err)
	}
	l.stderr = true
	return nil
}

func toStderr(f *os.File) error { return syscall.Dup3(int(f.Fd()), 2, 0) }

// Write appends p, rolling over first when p would take the file past
// the cap.
func (l *File) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	written := 0
	for len(p) > 0 {
		chunk := p
		if max := l.opts.MaxBytes; max > 0 {
			room := max - l.size
			// A write goes whole into a fresh file when it does not fit
			// in this one (a full one, or one over the cap when opened,
			// included); split only when it is larger than a file.
			if int64(len(p)) > room && l.size > 0 {
				if err := l.roll(); err != nil {
					return written, err
				}
				continue
			}
			chunk = p[:min(int64(len(p)), room)]
		}
		n, err := l.f.Write(chunk)
		l.size += int64(n)
		written += n
		if err != nil {
			return written, err
		}
		p = p[n:]
	}
	return written, nil
}

// roll moves the old files up one (NAME.Keep drops off), the current one
// to NAME.1, and starts a fresh current file. If that cannot be done the
// log goes on in the file it has, trying again a cap's worth later: a
// log that grows is better than one that stops.
func (l *File) roll() error {
	err := l.shift()
	if err == nil {
		old := l.f
		if err = l.open(); err == nil {
			old.Close()
			return nil
		}
	}
	l.size = 0
	return fmt.Errorf("log %s: rolling over: %w", l.path, err)
}

// shift renames NAME.(k) to NAME.(k+1) for k from Keep-1 down to 1, then
// NAME to NAME.1; with Keep 0 it removes NAME.
func (l *File) shift() error {
	if l.opts.Keep == 0 {
		return os.Remove(l.path)
	}
	for k := l.opts.Keep - 1; k >= 1; k-- {
		if err := os.Rename(l.old(k), l.old(k+1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return os.Rename(l.path, l.old(1))
}

func (l *File) old(k int) string { return l.path + "." + strconv.Itoa(k) }

// removeBeyondKeep removes NAME.k for every k over Keep.
func (l *File) removeBeyondKeep() error {
	dir, base := filepath.Split(l.path)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		suffix, ok := strings.CutPrefix(e.Name(), base+".")
		if !ok {
			continue
		}
		if k, err := strconv.Atoi(suffix); err == nil && k > l.opts.Keep && strconv.Itoa(k) == suffix {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// Close closes the current file. (After Stderr, standard error still
// refers to it.)
func (l *File) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}
