package journal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// attemptWriter is attempt a's writer of app's journal in store, taking
// over st.
func attemptWriter(store Store, a int, st *State) *Writer {
	return NewWriter(WriterConfig{Store: store, Attempt: a, Log: quiet()}, st)
}

func flush(t *testing.T, w *Writer, entries ...Entry) {
	t.Helper()
	w.Append(entries...)
	if err := w.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func load(t *testing.T, store Store) *State {
	t.Helper()
	st, err := Load(context.Background(), store, app)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// An older attempt that goes on writing after a newer one took over (an
// AM cut off from YARN but not from HDFS) neither overwrites the newer
// one's segments nor mixes into what a reader takes: the newer chain is
// read alone, and its next snapshot removes the older one's writes.
func TestAnOlderAttemptsLaterWritesAreIgnored(t *testing.T) {
	d := Dir(t.TempDir())
	old := attemptWriter(d, 1, NewState(app))
	flush(t, old, job(0))
	flush(t, old, done(0, 0, 1))
	taken := load(t, d)
	newer := attemptWriter(d, 2, taken)
	flush(t, newer)                // its snapshot of what it took over
	flush(t, newer, done(0, 0, 2)) // and a delta
	// The zombie goes on: job 0 ends and job 1 comes, in its chain only.
	for range 3 {
		flush(t, old, ended(0), job(1), done(1, 0, 0))
	}
	st := load(t, d)
	if len(st.Jobs) != 1 || st.Jobs[0].ID != 0 || !st.Jobs[0].Done[0].Has(1) || !st.Jobs[0].Done[0].Has(2) || st.NextJob != 1 {
		t.Fatalf("read %+v; want attempt 2's: job 0 alone, tasks 1 and 2 done", st.Jobs)
	}
	newer.whole = true // its next segment is a snapshot: it removes what it made needless
	flush(t, newer, done(0, 1, 0))
	names, _ := d.List(context.Background())
	if want := []string{segment{2, 2}.name()}; !slices.Equal(names, want) {
		t.Errorf("after attempt 2's snapshot the journal holds %v; want %v", names, want)
	}
}

// A newer attempt that died while writing its first segment (only its
// temporary file is there) leaves the older attempt's chain in force.
func TestANewerAttemptWithNoSegmentLeavesTheOlderChain(t *testing.T) {
	d := Dir(t.TempDir())
	flush(t, attemptWriter(d, 1, NewState(app)), job(0), done(0, 0, 4))
	half := filepath.Join(string(d), "."+segment{2, 0}.name()+".tmp")
	if err := os.WriteFile(half, []byte("spindle-journal 2 "+app+" snap"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st := load(t, d); len(st.Jobs) != 1 || !st.Jobs[0].Done[0].Has(4) {
		t.Fatalf("read %+v; want attempt 1's job 0 with task 4 done", st.Jobs)
	}
}

// An attempt that could not read the journal keeps the earlier
// attempts' segments (KeepEarlier); one that read it removes them once
// its snapshot is written.
func TestEarlierAttemptsSegmentsGoOnlyOnceTakenOver(t *testing.T) {
	d := Dir(t.TempDir())
	flush(t, attemptWriter(d, 1, NewState(app)), job(0))
	blind := NewWriter(WriterConfig{Store: d, Attempt: 2, KeepEarlier: true, Log: quiet()}, NewState(app))
	flush(t, blind, job(0))
	names, _ := d.List(context.Background())
	if want := []string{segment{1, 0}.name(), segment{2, 0}.name()}; !slices.Equal(names, want) {
		t.Fatalf("an attempt that read nothing left %v; want %v", names, want)
	}
	flush(t, attemptWriter(d, 3, load(t, d)))
	names, _ = d.List(context.Background())
	if want := []string{segment{3, 0}.name()}; !slices.Equal(names, want) {
		t.Errorf("an attempt that read the journal left %v; want %v", names, want)
	}
}

// flakyStore fails List or Read while failing is set: a NameNode away.
type flakyStore struct {
	Dir
	failList, failRead bool
}

var errAway = errors.New("connection refused")

func (f *flakyStore) List(ctx context.Context) ([]string, error) {
	if f.failList {
		return nil, errAway
	}
	return f.Dir.List(ctx)
}

func (f *flakyStore) Read(ctx context.Context, name string) ([]byte, error) {
	if f.failRead {
		return nil, errAway
	}
	return f.Dir.Read(ctx, name)
}

// A store that fails is unreadable, never a refused journal: the
// caller may try again, and the journal is read whole once it answers.
func TestAStoreThatFailsIsUnreadableNotRefused(t *testing.T) {
	store := &flakyStore{Dir: Dir(t.TempDir())}
	flush(t, attemptWriter(store, 1, NewState(app)), job(0), done(0, 1, 7))
	for _, fail := range []struct{ list, read bool }{{true, false}, {false, true}} {
		store.failList, store.failRead = fail.list, fail.read
		st, err := Load(context.Background(), store, app)
		if st != nil || !errors.Is(err, ErrUnreadable) || errors.Is(err, ErrRefused) || !errors.Is(err, errAway) {
			t.Errorf("list fails %v, read fails %v: Load = %v, %v; want no state, unreadable with the store's error", fail.list, fail.read, st, err)
		}
	}
	store.failList, store.failRead = false, false
	if st := load(t, store); len(st.Jobs) != 1 || !st.Jobs[0].Done[1].Has(7) {
		t.Errorf("once the store answers: %+v", st.Jobs)
	}
}
