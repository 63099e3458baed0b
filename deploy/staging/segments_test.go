package staging

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/spindle-yarn/spindle/am/journal"
)

// A journal kept through the staging file system reads back, and a
// segment a dead writer left half-written is overwritten, not in the way.
func TestSegmentsOnTheLocalFileSystem(t *testing.T) {
	ctx := context.Background()
	st := &Stager{fs: localFS{}}
	store, err := st.Segments(filepath.Join(t.TempDir(), "app", "journal"))
	if err != nil {
		t.Fatal(err)
	}
	if names, err := store.List(ctx); err != nil || len(names) != 0 {
		t.Fatalf("a journal never written lists %v, %v", names, err)
	}
	log, _ := logtest.NewNullLogger()
	w := journal.NewWriter(journal.WriterConfig{Store: store, Attempt: 1, Log: log}, journal.NewState("application_1_0001"))
	w.Append(journal.Entry{Job: &journal.Job{ID: 1, Spec: []byte("{}"), StageProfiles: []int{0}}})
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := localFS.upload(localFS{}, ctx, filepath.Join(store.dir, ".a0000000001-0000000001.seg.tmp"), strings.NewReader("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.Append(journal.TaskDone(1, 0, 2))
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	state, err := journal.Load(ctx, store, "application_1_0001")
	if err != nil || len(state.Jobs) != 1 || !state.Jobs[0].Done[0].Has(2) {
		t.Fatalf("Load = %+v, %v", state, err)
	}
	if _, err := st.Segments("relative/dir"); err == nil {
		t.Error("a relative journal directory is accepted")
	}
}

// mkdirCounting counts the directories made.
type mkdirCounting struct {
	localFS
	made int
}

func (m *mkdirCounting) mkdirPrivate(dir string) error {
	m.made++
	return m.localFS.mkdirPrivate(dir)
}

// Segments makes its directory once, not for each segment (two calls to
// the NameNode fewer a segment), and again after a write that failed:
// the directory may be what went.
func TestSegmentsMakeTheirDirectoryOnce(t *testing.T) {
	ctx := context.Background()
	fs := &mkdirCounting{}
	store, err := (&Stager{fs: fs}).Segments(filepath.Join(t.TempDir(), "app", "journal"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b", "c"} {
		if err := store.Write(ctx, name, []byte(name)); err != nil {
			t.Fatal(err)
		}
	}
	if fs.made != 1 {
		t.Errorf("3 segments made the directory %d times; want once", fs.made)
	}
	if err := os.RemoveAll(store.dir); err != nil {
		t.Fatal(err)
	}
	if err := store.Write(ctx, "d", []byte("d")); err == nil {
		t.Fatal("a segment written into a directory removed")
	}
	if err := store.Write(ctx, "d", []byte("d")); err != nil || fs.made != 2 {
		t.Errorf("after a failed write: %v, the directory made %d times; want it made again", err, fs.made)
	}
}
