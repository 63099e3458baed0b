package appmaster

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/journal"
)

const journalApp = "application_1795251528476_0009"

// flakyJournal is a journal store in memory whose List fails while
// listFailures is above 0, as HDFS does while its NameNode is away.
type flakyJournal struct {
	mu           sync.Mutex
	segments     map[string][]byte
	listFailures int
}

func (f *flakyJournal) List(context.Context) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.listFailures > 0 {
		f.listFailures--
		return nil, errors.New("connection refused")
	}
	return slices.Sorted(maps.Keys(f.segments)), nil
}

func (f *flakyJournal) Read(_ context.Context, name string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.segments[name], nil
}

func (f *flakyJournal) Write(_ context.Context, name string, data []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.segments[name] = data
	return nil
}

func (f *flakyJournal) Remove(_ context.Context, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.segments, name)
	return nil
}

// answer makes List answer from now on.
func (f *flakyJournal) answer() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.listFailures = 0
}

func (f *flakyJournal) names() []string {
	names, _ := f.List(context.Background())
	return names
}

// attemptOnesJournal is a store holding attempt 1's journal: job 0,
// its task 3 done.
func attemptOnesJournal(t *testing.T) *flakyJournal {
	f := &flakyJournal{segments: map[string][]byte{}}
	w := journal.NewWriter(journal.WriterConfig{Store: f, Attempt: 1, Log: quiet()}, journal.NewState(journalApp))
	w.Append(journal.Entry{Job: &journal.Job{ID: 0, Spec: []byte("{}"), StageProfiles: []int{0}}}, journal.TaskDone(0, 0, 3))
	if err := w.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	return f
}

// takeOverAsAttempt2 runs takeOver for attempt 2 on store, then
// taken, and stops its writer once it has written its first snapshot.
func takeOverAsAttempt2(store journal.Store, taken func()) (*journal.State, time.Duration, *logtest.Hook) {
	log, hook := logtest.NewNullLogger()
	a := appMaster{Journal: store, Attempt: 2, Core: core.Config{AppID: journalApp}, Log: log}
	began := time.Now()
	w, r, done, stop := takeOver(context.Background(), a, nil, nil)
	took := time.Since(began)
	taken()
	<-w.Written()
	stop()
	<-done
	if r == nil {
		return nil, took, hook
	}
	return r.State, took, hook
}

// A store that fails is tried again, with backoff, until it answers:
// the earlier attempt's work is taken over, not started over, and once
// this attempt's snapshot is written the earlier segments go.
func TestTakeOverTriesAStoreThatFailsAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := attemptOnesJournal(t)
		store.listFailures = 3
		st, took, hook := takeOverAsAttempt2(store, func() {})
		if st == nil || len(st.Jobs) != 1 || !st.Jobs[0].Done[0].Has(3) {
			t.Fatalf("took over %+v; want attempt 1's job 0 with task 3 done", st)
		}
		if took != (250+500+1000)*time.Millisecond {
			t.Errorf("took %v; want 1.75s (tried again after 250ms, 500ms, 1s)", took)
		}
		tries := 0
		for _, e := range hook.AllEntries() {
			if strings.Contains(e.Message, "trying again") {
				tries++
			}
		}
		if tries != 3 {
			t.Errorf("%d log lines say it tries again; want 3", tries)
		}
		if names := store.names(); !slices.Equal(names, []string{"a0000000002-0000000000.seg"}) {
			t.Errorf("the journal holds %v; want attempt 2's snapshot alone", names)
		}
	})
}

// A store that fails for longer than journalReadWait is given up on:
// the attempt goes on without the earlier work, as with a refused
// journal, but keeps the earlier attempt's segments, which it never
// read.
func TestTakeOverGivesUpOnAStoreThatStaysAway(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := attemptOnesJournal(t)
		store.listFailures = 1000
		// The store answers again once the attempt has given up on it.
		st, took, hook := takeOverAsAttempt2(store, store.answer)
		// Attempt 2 takes over the containers YARN kept whatever the
		// journal says, but none of the earlier attempt's work.
		if st != nil && (len(st.Jobs) > 0 || len(st.Executors) > 0) {
			t.Errorf("took over %+v; want no work", st)
		}
		if took != journalReadWait {
			t.Errorf("gave up after %v; want %v", took, journalReadWait)
		}
		said := false
		for _, e := range hook.AllEntries() {
			said = said || strings.Contains(e.Message, "could not be read in 30s: its work starts over, and its segments are kept")
		}
		if !said {
			t.Error("the log does not say the work starts over")
		}
		if names := store.names(); !slices.Equal(names, []string{"a0000000001-0000000000.seg", "a0000000002-0000000000.seg"}) {
			t.Errorf("the journal holds %v; want attempt 1's segment kept beside attempt 2's", names)
		}
	})
}
