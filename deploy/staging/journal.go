package staging

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/spindle-yarn/spindle/am/journal"
)

// JournalStore keeps an application's journal (am/journal) in dir, its
// staging directory's journal/: where the next attempt of its AM, on
// whichever node, finds it. A segment is uploaded under a temporary name
// and renamed once complete, so a reader sees all of it or nothing.
type JournalStore struct {
	s   *Stager
	dir string
}

// Journal is the journal store in dir, an absolute clean path.
func (s *Stager) Journal(dir string) (*JournalStore, error) {
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	return &JournalStore{s: s, dir: dir}, nil
}

var _ journal.Store = (*JournalStore)(nil)

func (j *JournalStore) List(context.Context) ([]string, error) {
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

func (j *JournalStore) Read(_ context.Context, name string) ([]byte, error) {
	return j.s.fs.readFile(path.Join(j.dir, name), journal.MaxSegmentBytes+1)
}

func (j *JournalStore) Write(ctx context.Context, name string, data []byte) error {
	if err := j.s.fs.mkdirPrivate(j.dir); err != nil {
		return err
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

func (j *JournalStore) Remove(_ context.Context, name string) error {
	return j.s.fs.removeAll(path.Join(j.dir, name))
}
