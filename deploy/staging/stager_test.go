package staging

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// localStager stages on the local file system, as for fs.defaultFS file:///.
func localStager(t *testing.T) *Stager {
	t.Helper()
	s, err := New(confWith(), "alice", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func writeFile(t *testing.T, dir, name string, data []byte, perm fs.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, perm); err != nil { // past the umask
		t.Fatal(err)
	}
	return p
}

func TestStageAndRemoveOnTheLocalFileSystem(t *testing.T) {
	src := t.TempDir()
	bin := make([]byte, 300<<10)
	rand.Read(bin)
	files := []File{
		{Local: writeFile(t, src, "spindle-linux", bin, 0o755), Name: "spindle"},
		{Local: writeFile(t, src, "job.yaml", []byte("name: x\n"), 0o644), Name: "job.yaml"},
		{Local: writeFile(t, src, "run.sh", []byte("#!/bin/sh\n"), 0o644), Name: "run.sh", Executable: true},
		{Local: writeFile(t, src, "empty", nil, 0o644), Name: "empty"},
	}
	wantPerm := []fs.FileMode{0o700, 0o600, 0o700, 0o600}
	dir := filepath.Join(t.TempDir(), "user", "alice", ".spindle", "application_1_0001")

	s := localStager(t)
	ctx := context.Background()
	res, err := s.Stage(ctx, dir, files)
	if err != nil {
		t.Fatalf("Stage: %v", err)
	}
	if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("staging directory: %v, %v; want mode 0700", st.Mode(), err)
	}
	if len(res) != len(files) {
		t.Fatalf("Stage returned %d resources for %d files", len(res), len(files))
	}
	for i, f := range files {
		key, r := res[i].GetKey(), res[i].GetValue()
		if key != f.Name {
			t.Errorf("resource %d is %q, want %q", i, key, f.Name)
		}
		staged := filepath.Join(dir, f.Name)
		st, err := os.Stat(staged)
		if err != nil {
			t.Fatal(err)
		}
		u := r.GetResource()
		if u.GetScheme() != "file" || u.Host != nil || u.GetPort() != -1 || u.GetFile() != staged {
			t.Errorf("%s: URL %v, want file, no host, port -1, %s", key, u, staged)
		}
		if r.GetSize() != st.Size() || r.GetTimestamp() != st.ModTime().UnixMilli() {
			t.Errorf("%s: size %d timestamp %d, the file has %d and %d", key, r.GetSize(), r.GetTimestamp(), st.Size(), st.ModTime().UnixMilli())
		}
		if r.GetTimestamp()%1000 != 0 {
			t.Errorf("%s: timestamp %d is not on a whole second", key, r.GetTimestamp())
		}
		if r.GetType() != hadoopyarn.LocalResourceTypeProto_FILE || r.GetVisibility() != hadoopyarn.LocalResourceVisibilityProto_APPLICATION {
			t.Errorf("%s: type %v visibility %v, want FILE APPLICATION", key, r.GetType(), r.GetVisibility())
		}
		if st.Mode().Perm() != wantPerm[i] {
			t.Errorf("%s: mode %v, want %v", key, st.Mode().Perm(), wantPerm[i])
		}
		want, _ := os.ReadFile(f.Local)
		if got, _ := os.ReadFile(staged); !bytes.Equal(got, want) {
			t.Errorf("%s: staged copy differs from %s", key, f.Local)
		}
	}

	// Staging a name twice into the same directory does not overwrite.
	if _, err := s.Stage(ctx, dir, files[1:2]); !errors.Is(err, fs.ErrExist) {
		t.Errorf("staging job.yaml again: %v, want exists", err)
	}

	for range 2 { // idempotent
		if err := s.Remove(ctx, dir); err != nil {
			t.Fatalf("Remove: %v", err)
		}
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("after Remove: %v, want not-exist", err)
	}
}

func TestStageRefuses(t *testing.T) {
	src := t.TempDir()
	dir := filepath.Join(t.TempDir(), "app")
	s := localStager(t)
	ctx := context.Background()
	ok := writeFile(t, src, "ok", []byte("x"), 0o644)
	for _, tc := range []struct {
		dir   string
		files []File
		want  string
	}{
		{"relative/app", []File{{Local: ok, Name: "ok"}}, `directory "relative/app"`},
		{"/", []File{{Local: ok, Name: "ok"}}, `directory "/"`},
		{"/tmp/../app", []File{{Local: ok, Name: "ok"}}, `directory "/tmp/../app"`},
		{dir, []File{{Local: filepath.Join(src, "missing"), Name: "m"}}, filepath.Join(src, "missing")},
		{dir, []File{{Local: src, Name: "d"}}, src + " is not a regular file"},
		{dir, []File{{Local: ok, Name: "a/b"}}, `name "a/b"`},
	} {
		_, err := s.Stage(ctx, tc.dir, tc.files)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Stage(%s, %+v) = %v, want an error containing %q", tc.dir, tc.files, err, tc.want)
		}
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Stage(cancelled, dir, []File{{Local: ok, Name: "ok"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("Stage with a cancelled context = %v", err)
	}
	if _, err := (ctxReader{cancelled, strings.NewReader("x")}).Read(make([]byte, 1)); !errors.Is(err, context.Canceled) {
		t.Errorf("ctxReader.Read with a cancelled context = %v", err)
	}
	if err := s.Remove(ctx, "/"); err == nil {
		t.Error(`Remove("/") succeeded`)
	}
}
