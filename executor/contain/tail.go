package contain

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// tailFile is an output file that keeps at most max bytes, the last ones
// written, as Spark's rolling executor logs keep the newest. While the
// process runs, output goes to path until it holds max bytes, then path
// moves to path.1 (replacing the older one) and a new path begins: the
// newest max bytes are always within the two, and the disk holds at most
// 2·max. Close then leaves one file at path, of at most max bytes: a
// one-line notice of what was cut, and the tail.
//
// With max 0 the file keeps everything.
type tailFile struct {
	path string
	max  int64

	mu      sync.Mutex
	f       *os.File
	n       int64 // bytes in the current file
	written int64 // bytes written in all
	rolled  bool
	err     error // the first write error; later output is dropped
}

// MinOutputCap is the smallest cap: room for the line that says what was
// cut, and output after it.
const MinOutputCap = 1024

func openTail(path string, max int64) (*tailFile, error) {
	if max != 0 && max < MinOutputCap {
		return nil, fmt.Errorf("output cap %d bytes: want at least %d", max, MinOutputCap)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	os.Remove(path + ".1") // a previous run's
	return &tailFile{path: path, max: max, f: f}, nil
}

// Write never fails: the process must not get EPIPE because its log is
// full or the disk is. The first error is kept for Close to report.
func (t *tailFile) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	for len(p) > 0 && t.err == nil && t.f != nil {
		if t.max > 0 && t.n == t.max {
			t.err = t.roll()
			continue
		}
		k := len(p)
		if t.max > 0 {
			k = int(min(int64(k), t.max-t.n))
		}
		w, err := t.f.Write(p[:k])
		t.n += int64(w)
		t.written += int64(w)
		p = p[w:]
		if err != nil {
			t.err = err
		}
	}
	return n, nil
}

// roll moves the full current file aside and starts a new one.
func (t *tailFile) roll() error {
	if err := t.f.Close(); err != nil {
		return err
	}
	if err := os.Rename(t.path, t.path+".1"); err != nil {
		return err
	}
	f, err := os.OpenFile(t.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	t.f, t.n, t.rolled = f, 0, true
	return nil
}

// cutNotice is the first line of a file whose head was cut.
func cutNotice(cut, max int64) string {
	return fmt.Sprintf("[spindle: the first %d bytes of this output were cut to keep the last %d (spindle.task.log.maxBytes)]\n", cut, max)
}

// Close finishes the file and returns how many bytes were cut from its
// head, and the first error met.
func (t *tailFile) Close() (cut int64, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.f == nil {
		return 0, os.ErrClosed
	}
	cerr := t.f.Close()
	t.f = nil
	if t.err == nil {
		t.err = cerr
	}
	if !t.rolled || t.err != nil {
		return 0, t.err
	}
	// The notice's length depends on the count it states; the notice for
	// everything written is at least as long as the final one.
	keep := t.max - int64(len(cutNotice(t.written, t.max)))
	cut = t.written - keep
	if err := t.compact(cutNotice(cut, t.max), keep); err != nil {
		return 0, err
	}
	return cut, nil
}

// compact writes notice and the last keep bytes of path.1 followed by
// path into a new path, and removes path.1.
func (t *tailFile) compact(notice string, keep int64) error {
	tmp, err := os.CreateTemp(filepath.Dir(t.path), filepath.Base(t.path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, nothing is there
	fromPrev := max(keep-t.n, 0)
	err = func() error {
		if _, err := io.WriteString(tmp, notice); err != nil {
			return err
		}
		if fromPrev > 0 {
			if err := copyTail(tmp, t.path+".1", fromPrev); err != nil {
				return err
			}
		}
		return copyTail(tmp, t.path, min(keep, t.n))
	}()
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), t.path)
	}
	if err != nil {
		return err
	}
	return os.Remove(t.path + ".1")
}

// copyTail copies the last n bytes of the file at path to w.
func copyTail(w io.Writer, path string, n int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if _, err := f.Seek(max(st.Size()-n, 0), io.SeekStart); err != nil {
		return err
	}
	_, err = io.Copy(w, f)
	return err
}
