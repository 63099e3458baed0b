package staging

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

func TestCacheDirIsBesideTheApplications(t *testing.T) {
	if got := CacheDir("", "alice"); got != "/user/alice/.spindle/cache" {
		t.Errorf("default: %s", got)
	}
	if got := CacheDir("/tmp/${USER}/stage", "bob"); got != "/tmp/bob/stage/cache" {
		t.Errorf("template: %s", got)
	}
}

// A file is uploaded once per content, under its hash, private, and given
// to containers as PRIVATE with the copy's size and time; an unchanged
// file is reused without writing, a changed one is a new copy beside it.
func TestCachedUploadsOncePerContent(t *testing.T) {
	src := t.TempDir()
	bin := make([]byte, 200<<10)
	rand.Read(bin)
	local := writeFile(t, src, "spindle-linux", bin, 0o755)
	dir := filepath.Join(t.TempDir(), "user", "alice", ".spindle", "cache")
	s, ctx := localStager(t), context.Background()
	f := File{Local: local, Name: "spindle", Executable: true}

	res, uploaded, err := s.Cached(ctx, dir, f)
	if err != nil || !uploaded {
		t.Fatalf("first: uploaded %v, %v", uploaded, err)
	}
	sum := sha256.Sum256(bin)
	copyPath := filepath.Join(dir, "spindle-"+hex.EncodeToString(sum[:]))
	st, err := os.Stat(copyPath)
	if err != nil || st.Mode().Perm() != 0o700 || st.Size() != int64(len(bin)) {
		t.Fatalf("the cached copy: %v, %v", st, err)
	}
	if d, _ := os.Stat(dir); d.Mode().Perm() != 0o700 {
		t.Errorf("the cache directory is %v, want 0700", d.Mode().Perm())
	}
	v := res.GetValue()
	if res.GetKey() != "spindle" || v.GetVisibility() != hadoopyarn.LocalResourceVisibilityProto_PRIVATE ||
		v.GetSize() != st.Size() || v.GetTimestamp() != st.ModTime().UnixMilli() || v.GetResource().GetFile() != copyPath {
		t.Errorf("resource %v for %s", res, copyPath)
	}

	// Again, unchanged: nothing written, the same resource.
	before := st.ModTime()
	again, uploaded, err := s.Cached(ctx, dir, f)
	if err != nil || uploaded {
		t.Fatalf("second: uploaded %v, %v", uploaded, err)
	}
	if st, _ := os.Stat(copyPath); !st.ModTime().Equal(before) || again.GetValue().GetTimestamp() != v.GetTimestamp() {
		t.Errorf("the cached copy was rewritten")
	}

	// Changed: a new copy, the old one kept (an application may use it).
	bin[0] ^= 0xff
	writeFile(t, src, "spindle-linux", bin, 0o755)
	if _, uploaded, err := s.Cached(ctx, dir, f); err != nil || !uploaded {
		t.Fatalf("changed: uploaded %v, %v", uploaded, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d cached copies, want the old and the new", len(entries))
	}
}

// A copy of the wrong size is another submission's upload under way:
// the caller is told to stage with the application, and the copy is left
// alone; once it is older than an upload can last, it is replaced.
func TestCachedLeavesAnUploadUnderWayAndReplacesAnAbandonedOne(t *testing.T) {
	local := writeFile(t, t.TempDir(), "spindle-linux", []byte("the binary"), 0o755)
	dir := t.TempDir()
	sum := sha256.Sum256([]byte("the binary"))
	partial := filepath.Join(dir, "spindle-"+hex.EncodeToString(sum[:]))
	if err := os.WriteFile(partial, []byte("the b"), 0o700); err != nil {
		t.Fatal(err)
	}
	s, ctx := localStager(t), context.Background()
	f := File{Local: local, Name: "spindle"}
	if _, _, err := s.Cached(ctx, dir, f); !errors.Is(err, ErrCacheBusy) {
		t.Fatalf("a partial copy: %v, want ErrCacheBusy", err)
	}
	if b, _ := os.ReadFile(partial); string(b) != "the b" {
		t.Fatalf("the upload under way was touched: %q", b)
	}
	old := time.Now().Add(-abandonedAfter - time.Minute)
	os.Chtimes(partial, old, old)
	if _, uploaded, err := s.Cached(ctx, dir, f); err != nil || !uploaded {
		t.Fatalf("an abandoned copy: uploaded %v, %v", uploaded, err)
	}
	if b, _ := os.ReadFile(partial); string(b) != "the binary" {
		t.Errorf("the abandoned copy was not replaced: %q", b)
	}
}

// Uploading a new copy prunes the old ones beyond the keepCached newest
// (the new one among them) that are older than pruneAfter: at the limit
// a copy stays, one past it goes; a young copy stays however many there
// are, and other files are never touched.
func TestCachedPrunesOldCopies(t *testing.T) {
	dir := t.TempDir()
	stale := time.Now().Add(-pruneAfter - time.Hour)
	var olds []string
	for i := range keepCached + 1 {
		sum := sha256.Sum256([]byte{byte(i)})
		p := writeFile(t, dir, "spindle-"+hex.EncodeToString(sum[:]), []byte{byte(i)}, 0o700)
		at := stale.Add(time.Duration(i) * time.Minute) // olds[keepCached] newest
		os.Chtimes(p, at, at)
		olds = append(olds, p)
	}
	young := writeFile(t, dir, "spindle-"+hex.EncodeToString(make([]byte, sha256.Size)), nil, 0o700)
	other := writeFile(t, dir, "notes.txt", nil, 0o600)
	oldOther := writeFile(t, dir, "spindle-notahash", nil, 0o600)
	os.Chtimes(other, stale, stale)
	os.Chtimes(oldOther, stale, stale)

	local := writeFile(t, t.TempDir(), "spindle-linux", []byte("new"), 0o755)
	if _, uploaded, err := localStager(t).Cached(context.Background(), dir, File{Local: local, Name: "spindle"}); err != nil || !uploaded {
		t.Fatalf("uploaded %v, %v", uploaded, err)
	}
	// Kept: the new copy, the young one, and the newest stale ones up to
	// keepCached copies besides the new one.
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	for i, p := range olds {
		want := i >= len(olds)-(keepCached-2)
		if exists(p) != want {
			t.Errorf("stale copy %d (of %d, oldest first): kept %v, want %v", i, len(olds), exists(p), want)
		}
	}
	for _, p := range []string{young, other, oldOther} {
		if !exists(p) {
			t.Errorf("%s was removed", filepath.Base(p))
		}
	}
}
