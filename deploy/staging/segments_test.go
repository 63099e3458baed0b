package staging

import (
	"context"
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
	w := journal.NewWriter(store, journal.NewState("application_1_0001"), 0, log)
	w.Append(journal.Entry{Job: &journal.Job{ID: 1, Spec: []byte("{}"), StageProfiles: []int{0}}})
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := localFS.upload(localFS{}, ctx, filepath.Join(store.dir, ".0000000001.seg.tmp"), strings.NewReader("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.Append(journal.Entry{TaskDone: &journal.TaskDone{Job: 1, Stage: 0, Index: 2}})
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	state, next, err := journal.Load(ctx, store, "application_1_0001")
	if err != nil || next != 2 || len(state.Jobs) != 1 || len(state.Jobs[0].Done) != 1 {
		t.Fatalf("Load = %+v, %d, %v", state, next, err)
	}
	if _, err := st.Segments("relative/dir"); err == nil {
		t.Error("a relative journal directory is accepted")
	}
}
