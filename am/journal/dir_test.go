package journal

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spindle-yarn/spindle/internal/durable"
)

// Dir is a Store in a local directory, for the tests: the AM keeps its
// journal through deploy/staging's Segments, on HDFS or file://. A
// segment is written under a temporary name and renamed, which is atomic
// on a local file system, and synced as deploy/staging's file:// store
// syncs it (internal/durable).
type Dir string

func (d Dir) List(context.Context) ([]string, error) {
	entries, err := os.ReadDir(string(d))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names, err
}

func (d Dir) Read(_ context.Context, name string) ([]byte, error) {
	f, err := os.Open(filepath.Join(string(d), name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxSegmentBytes+1))
}

func (d Dir) Write(_ context.Context, name string, data []byte) error {
	if err := os.MkdirAll(string(d), 0o700); err != nil {
		return err
	}
	tmp := filepath.Join(string(d), "."+name+".tmp")
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) { // a dead writer's
		return err
	}
	if err := durable.WriteFile(tmp, bytes.NewReader(data), 0o600); err != nil {
		return err
	}
	return durable.Rename(tmp, filepath.Join(string(d), name))
}

func (d Dir) Remove(_ context.Context, name string) error {
	return os.Remove(filepath.Join(string(d), name))
}
