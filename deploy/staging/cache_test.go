package staging

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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

// rebuiltMidUpload is the local file system with a binary rebuilt while
// it uploads: after the upload's first read, one byte of local changes,
// its size kept, so that only the content's hash can tell.
type rebuiltMidUpload struct {
	localFS
	local string
}

func (r rebuiltMidUpload) upload(ctx context.Context, dst string, src io.Reader, perm fs.FileMode) error {
	return r.localFS.upload(ctx, dst, &rebuildAfterFirstRead{r: src, local: r.local}, perm)
}

type rebuildAfterFirstRead struct {
	r     io.Reader
	local string
	done  bool
}

func (b *rebuildAfterFirstRead) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if !b.done {
		b.done = true
		f, ferr := os.OpenFile(b.local, os.O_RDWR, 0)
		if ferr != nil {
			return n, ferr
		}
		defer f.Close()
		last := make([]byte, 1)
		st, _ := f.Stat()
		if _, ferr := f.ReadAt(last, st.Size()-1); ferr != nil {
			return n, ferr
		}
		if _, ferr := f.WriteAt([]byte{last[0] ^ 0xff}, st.Size()-1); ferr != nil {
			return n, ferr
		}
	}
	return n, err
}

// A binary that changes while it uploads is not cached under its old
// content's hash: that name would then promise content it does not hold,
// to every later submission. The upload fails, naming the file, and
// leaves no copy; the next submission caches the new content under its
// own hash.
func TestCachedRefusesABinaryThatChangesWhileItUploads(t *testing.T) {
	bin := make([]byte, 200<<10) // several reads
	rand.Read(bin)
	local := writeFile(t, t.TempDir(), "spindle-linux", bin, 0o755)
	dir := t.TempDir()
	s := &Stager{fs: rebuiltMidUpload{local: local}, origin: localStager(t).origin}
	_, uploaded, err := s.Cached(context.Background(), dir, File{Local: local, Name: "spindle"})
	if err == nil || uploaded || !strings.Contains(err.Error(), local+" changed while it was uploaded") {
		t.Fatalf("uploaded %v, error %v; want an error naming %s as changed", uploaded, err, local)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left in the cache: %v", entries)
	}

	now, err := os.ReadFile(local)
	if err != nil || bytes.Equal(now, bin) {
		t.Fatalf("the local file did not change (%v)", err)
	}
	if _, uploaded, err := localStager(t).Cached(context.Background(), dir, File{Local: local, Name: "spindle"}); err != nil || !uploaded {
		t.Fatalf("the next submission: uploaded %v, %v", uploaded, err)
	}
	sum := sha256.Sum256(now)
	if got, err := os.ReadFile(filepath.Join(dir, "spindle-"+hex.EncodeToString(sum[:]))); err != nil || !bytes.Equal(got, now) {
		t.Errorf("the new content is not cached under its hash: %v", err)
	}
}
