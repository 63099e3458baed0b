package staging

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"time"

	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/am/journal"
)

// Segments keeps files written whole in dir: an application's journal
// (am/journal), in its staging directory's journal/, where the next
// attempt of its AM, on whichever node, finds it; and its event log
// (am/history), which outlives it. A segment is uploaded under a
// temporary name and renamed once complete, so a reader sees all of it
// or nothing.
type Segments struct {
	s   *Stager
	dir string
	// made says dir was made by an earlier Write, which then need not
	// ask the NameNode twice more (mkdirs, chmod) per segment; a
	// failed Write makes it again.
	made bool
}

// Segments is the segment store in dir, an absolute clean path.
func (s *Stager) Segments(dir string) (*Segments, error) {
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	return &Segments{s: s, dir: dir}, nil
}

var (
	_ journal.Store        = (*Segments)(nil)
	_ history.SegmentStore = (*Segments)(nil)
	_ history.PartStore    = (*Segments)(nil)
)

func (j *Segments) List(context.Context) ([]string, error) {
	infos, err := j.s.fs.readDir(j.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s%s: %w", j.s.origin, j.dir, err)
	}
	names := make([]string, 0, len(infos))
	for _, fi := range infos {
		names = append(names, fi.Name())
	}
	return names, nil
}

func (j *Segments) Read(_ context.Context, name string) ([]byte, error) {
	return j.s.fs.readFile(path.Join(j.dir, name), journal.MaxSegmentBytes+1)
}

// ReadHead reads a segment's first n bytes, for a list of applications
// (history.Summarize); whole says it read them all.
func (j *Segments) ReadHead(ctx context.Context, name string, n int) ([]byte, bool, error) {
	return j.readPart(name, n, false)
}

// ReadTail reads a segment's last n bytes.
func (j *Segments) ReadTail(ctx context.Context, name string, n int) ([]byte, bool, error) {
	return j.readPart(name, n, true)
}

func (j *Segments) readPart(name string, n int, tail bool) ([]byte, bool, error) {
	p := path.Join(j.dir, name)
	fi, err := j.s.fs.stat(p)
	if err != nil {
		return nil, false, err
	}
	size, off := fi.Size(), int64(0)
	if tail {
		off = max(0, size-int64(n))
	}
	data, err := j.s.fs.readRange(p, off, int64(n))
	return data, err == nil && off == 0 && int64(len(data)) >= size, err
}

// Modified is when a segment was last written.
func (j *Segments) Modified(name string) (time.Time, error) {
	fi, err := j.s.fs.stat(path.Join(j.dir, name))
	if err != nil {
		return time.Time{}, err
	}
	return fi.ModTime(), nil
}

// Write is called from one goroutine at a time (its writer's).
func (j *Segments) Write(ctx context.Context, name string, data []byte) error {
	err := j.write(ctx, name, data)
	j.made = err == nil
	return err
}

func (j *Segments) write(ctx context.Context, name string, data []byte) error {
	if !j.made {
		if err := j.s.fs.mkdirPrivate(j.dir); err != nil {
			return err
		}
	}
	tmp := path.Join(j.dir, "."+name+".tmp")
	if err := j.s.fs.removeAll(tmp); err != nil { // a dead writer's
		return err
	}
	if err := j.s.fs.upload(ctx, tmp, bytes.NewReader(data), 0o600); err != nil {
		return err
	}
	return j.s.fs.rename(tmp, path.Join(j.dir, name))
}

func (j *Segments) Remove(_ context.Context, name string) error {
	return j.s.fs.removeAll(path.Join(j.dir, name))
}
