package history

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
)

// The event log rolls into segments of whole lines at its roll size,
// and Load builds from them the Store the live one was.
func TestTheEventLogRollsAndLoadsAsTheStoreWas(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	w := NewWriter(store, nil, logrus.New())
	w.roll = 600
	live := NewStore(Limits{})
	events := script()
	for i := range events {
		record(t, live, events[i])
		w.Append(events[i])
		if i%3 == 2 {
			if err := w.flush(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.flush(ctx); err != nil {
		t.Fatal(err)
	}
	names, _ := store.List(ctx)
	if len(names) < 3 {
		t.Fatalf("segments %q: want the log rolled at 600 bytes", names)
	}
	for _, n := range names {
		data := store.files[n]
		if len(data) > 600 || data[len(data)-1] != '\n' {
			t.Errorf("segment %s: %d bytes, ends %q; want at most 600, whole lines", n, len(data), data[len(data)-1])
		}
	}
	loaded, err := Load(ctx, store, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []func(*Store) any{
		func(s *Store) any { j, _ := s.Job(at(10), 0); return j },
		func(s *Store) any { p, _ := s.Tasks(at(10), 0, TaskQuery{Length: 10}); return p },
		func(s *Store) any { return s.Executors(at(10)) },
		func(s *Store) any { return s.Pools() },
		func(s *Store) any { return s.App() },
		func(s *Store) any { return s.Timeline(at(10)) },
	} {
		a, _ := json.Marshal(q(live))
		b, _ := json.Marshal(q(loaded))
		if string(a) != string(b) {
			t.Errorf("loaded:\n%s\nlive:\n%s", b, a)
		}
	}
}

// A write that fails loses nothing: the next flush writes it.
func TestTheEventLogWritesAgainAfterAFailure(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	w := NewWriter(store, nil, logrus.New())
	events := script()
	w.Append(events[:4]...)
	store.fail = errAway
	if err := w.flush(ctx); err == nil {
		t.Fatal("a failed write reported none")
	}
	w.Append(events[4:]...)
	store.fail = nil
	if err := w.flush(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(store.files[segmentName(1)])
	if err != nil || len(got) != len(events) {
		t.Fatalf("%d events logged (%v), want %d", len(got), err, len(events))
	}
}

// A writer that continues a log (the AM's next attempt) shows what was
// logged and writes after it.
func TestAWriterContinuesAnEarlierAttemptsLog(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	first := NewWriter(store, nil, logrus.New())
	first.roll = 600
	first.Append(script()...)
	first.flush(ctx)
	before, _ := store.List(ctx)
	s := NewStore(Limits{})
	w, err := Continue(ctx, store, s, logrus.New())
	if err != nil {
		t.Fatal(err)
	}
	if j, ok := s.Job(at(10), 0); !ok || j.Running != 2 {
		t.Errorf("the earlier attempt's job: %+v", j)
	}
	w.Append(Event{Time: at(11), AppEnded: &AppEnded{Succeeded: true}})
	w.flush(ctx)
	after, _ := store.List(ctx)
	if len(after) != len(before)+1 || after[len(after)-1] != segmentName(len(before)+1) {
		t.Errorf("segments %q after %q: want one more, after them", after, before)
	}
	if _, err := Load(ctx, store, Limits{}); err != nil {
		t.Errorf("the continued log: %v", err)
	}
}

func TestDecodeNamesTheLineItRefuses(t *testing.T) {
	good := `{"t":"2026-11-26T12:00:00Z","appEnded":{"succeeded":true}}` + "\n"
	for name, tc := range map[string]struct{ data, says string }{
		"not JSON":          {good + "{nope\n", "line 2: "},
		"two kinds":         {`{"t":"2026-11-26T12:00:00Z","appEnded":{},"pools":[{"name":"a"}]}` + "\n", "line 1: an event sets 2 kinds"},
		"no kind":           {good + good + `{"t":"2026-11-26T12:00:00Z"}` + "\n", "line 3: an event sets 0 kinds"},
		"no time":           {`{"appEnded":{"succeeded":true}}` + "\n", "line 1: an event with no time"},
		"an unknown name":   {`{"t":"2026-11-26T12:00:00Z","appEnded":{"succeeded":true,"why":1}}` + "\n", `line 1: json: unknown field "why"`},
		"two values":        {`{"t":"2026-11-26T12:00:00Z","appEnded":{}} {}` + "\n", "line 1: more than one JSON value"},
		"cut short":         {good + good[:20], "line 2: "},
		"a blank cut short": {" ", "line 1: cut short"},
		"a line too long":   {good + `{"t":"` + strings.Repeat("x", MaxLineBytes) + "\n", "line 2: bufio.Scanner: token too long"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Decode([]byte(tc.data))
			if err == nil || !strings.HasPrefix(err.Error(), tc.says) {
				t.Errorf("error %v, want one starting %q", err, tc.says)
			}
		})
	}
	if events, err := Decode([]byte(good + "\n" + good)); err != nil || len(events) != 2 || events[1].Line != 3 {
		t.Errorf("two events around a blank line: %v, %v", events, err)
	}
}

// Load names the segment and line of an event the Store refuses, and a
// log of no segments is an error, not an empty history.
func TestLoadRefusesALogThatContradictsItself(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	if _, err := Load(ctx, store, Limits{}); err == nil || !strings.Contains(err.Error(), "no segments") {
		t.Errorf("an empty log: %v", err)
	}
	store.files[segmentName(1)] = []byte(`{"t":"2026-11-26T12:00:00Z","jobEnded":{"id":4,"state":"failed"}}` + "\n")
	store.files["events-tmp.jsonl"] = []byte("ignored: not a segment's name")
	_, err := Load(ctx, store, Limits{})
	if want := "event log segment events-000001.jsonl line 1: job 4 ended, but it is not running"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

func FuzzDecode(f *testing.F) {
	var b strings.Builder
	for _, e := range script() {
		line, _ := json.Marshal(e)
		fmt.Fprintf(&b, "%s\n", line)
	}
	f.Add([]byte(b.String()))
	f.Add([]byte(`{"t":"2026-11-26T12:00:00Z","taskEnded":{"stage":1,"index":-1,"attempt":0,"executor":"e","state":"failed"}}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		events, err := Decode(data)
		if err != nil {
			return
		}
		// What decodes, a Store takes or refuses; it never panics.
		s := NewStore(Limits{RetainedTasks: 8})
		for _, e := range events {
			s.Record(e.Event)
		}
		s.App()
		for _, j := range s.Jobs(at(0)) {
			s.Job(at(0), j.ID)
		}
	})
}

// A snapshot rebuilds the Store it was taken of: its lists, counts and
// timeline alike; and events after it apply as they would have.
func TestASnapshotRebuildsTheStore(t *testing.T) {
	live := NewStore(Limits{RetainedTasks: 2, TimelinePoints: 4})
	record(t, live, script()...)
	record(t, live, Event{Time: at(9), TaskEnded: &TaskEnded{Stage: 0, Index: 2, Executor: "e1", State: TaskKilled, Reason: "drained"}})
	rebuilt := NewStore(Limits{RetainedTasks: 2, TimelinePoints: 4})
	record(t, rebuilt, live.Snapshot()...)
	same(t, live, rebuilt, at(10))
	more := []Event{
		{Time: at(11), TaskEnded: &TaskEnded{Stage: 0, Index: 1, Attempt: 1, Executor: "e1", State: TaskSucceeded}},
		{Time: at(12), JobEnded: &JobEnded{ID: 0, State: JobFailed, Reason: "task 2 failed"}},
		{Time: at(13), AppEnded: &AppEnded{Diagnostics: "failed"}},
	}
	for _, e := range more {
		record(t, live, e)
		record(t, rebuilt, e)
	}
	same(t, live, rebuilt, at(14))

	// A stage whose every task succeeded stays succeeded.
	// Of its 3 tasks, the snapshot lists 2 (RetainedTasks).
	record(t, live, Event{Time: at(15), JobSubmitted: &JobSubmitted{ID: 1, Stages: []StageInfo{{ID: 2, Tasks: 3}}}})
	for i := range 3 {
		record(t, live, Event{Time: at(15), TaskStarted: &TaskStarted{Stage: 2, Index: i, Executor: "e1"}},
			Event{Time: at(16), TaskEnded: &TaskEnded{Stage: 2, Index: i, Executor: "e1", State: TaskSucceeded}})
	}
	again := NewStore(Limits{RetainedTasks: 2, TimelinePoints: 4})
	record(t, again, live.Snapshot()...)
	if st, _ := again.Stage(at(17), 2); st.State != JobSucceeded {
		t.Errorf("a stage done, from a snapshot: %s", st.State)
	}
}

// While a snapshot waits to be written, appends add to it: no second
// snapshot replaces the first.
func TestOneSnapshotAtATime(t *testing.T) {
	live := NewStore(Limits{})
	w := NewWriter(newMemStore(), live, logrus.New())
	w.compact = 10
	events := script()
	for _, e := range events {
		record(t, live, e)
		w.Append(e)
	}
	got, err := Decode(w.pending)
	if err != nil {
		t.Fatal(err)
	}
	marks := 0
	for _, e := range got {
		if e.Snapshot != nil {
			marks++
		}
	}
	if marks != 1 || got[0].Snapshot == nil || got[len(got)-1].TaskStarted == nil {
		t.Errorf("%d snapshots pending (first %+v, last %+v); want one, then the events after it", marks, got[0].Event, got[len(got)-1].Event)
	}
}

// same fails unless a and b answer every query alike.
func same(t *testing.T, a, b *Store, now time.Time) {
	t.Helper()
	for name, q := range map[string]func(*Store) any{
		"jobs":      func(s *Store) any { return s.Jobs(now) },
		"job":       func(s *Store) any { j, _ := s.Job(now, 0); return j },
		"stage":     func(s *Store) any { st, _ := s.Stage(now, 0); return st },
		"tasks":     func(s *Store) any { p, _ := s.Tasks(now, 0, TaskQuery{Length: 10}); return p },
		"executors": func(s *Store) any { return s.Executors(now) },
		"pools":     func(s *Store) any { return s.Pools() },
		"app":       func(s *Store) any { return s.App() },
		"timeline":  func(s *Store) any { return s.Timeline(now) },
		"attempts":  func(s *Store) any { tk, _ := s.Task(now, 0, 1); return tk },
		"durations": func(s *Store) any { d, _ := s.Durations(0); return d },
		"by length": func(s *Store) any {
			p, _ := s.Tasks(now, 0, TaskQuery{Sort: SortDuration, Desc: true, Length: 10})
			return p
		},
	} {
		x, _ := json.Marshal(q(a))
		y, _ := json.Marshal(q(b))
		if string(x) != string(y) {
			t.Errorf("%s differs:\n%s\nrebuilt:\n%s", name, x, y)
		}
	}
}

// Once CompactBytes were written after the last snapshot, the writer
// writes a snapshot in a segment of its own and removes those before
// it: the log stays within a snapshot and CompactBytes, and loads as
// the live Store is.
func TestTheEventLogCompacts(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	live := NewStore(Limits{})
	w := NewWriter(store, live, logrus.New())
	w.roll, w.compact = 400, 1200
	events := script()
	record(t, live, events[:5]...)
	w.Append(events[:5]...)
	w.flush(ctx)
	for i := range 40 { // attempts of task 2 failing, over and over
		e := []Event{{Time: at(9 + float64(i)), TaskStarted: &TaskStarted{Stage: 0, Index: 2, Attempt: i, Executor: "e1"}},
			{Time: at(9.5 + float64(i)), TaskEnded: &TaskEnded{Stage: 0, Index: 2, Attempt: i, Executor: "e1", State: TaskFailed, ExitCode: 1}}}
		record(t, live, e...)
		w.Append(e...)
		if err := w.flush(ctx); err != nil {
			t.Fatal(err)
		}
		total, snapshot := 0, 0
		for _, data := range store.files {
			total += len(data)
		}
		for _, e := range live.Snapshot() {
			line, _ := appendEvent(nil, &e)
			snapshot += len(line)
		}
		// A snapshot, what came after it, and one last append.
		if bound := snapshot + w.compact + 400; total > bound {
			t.Fatalf("after %d attempts the log holds %d bytes, over %d: not compacted", i+1, total, bound)
		}
	}
	names, _ := store.List(ctx)
	first, _ := Decode(store.files[names[0]])
	if first[0].Snapshot == nil {
		t.Errorf("the log's first segment, %s, is no snapshot", names[0])
	}
	loaded, err := Load(ctx, store, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, live, loaded, at(60))
	if st, _ := loaded.Stage(at(60), 0); st.FailedAttempts != 40 {
		t.Errorf("%d failed attempts after compaction, want 40", st.FailedAttempts)
	}
}

// A snapshot its writer did not finish (the AM died) is passed over: the
// log reads from the one before, or from its start.
func TestLoadPassesOverASnapshotCutShort(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	live := NewStore(Limits{})
	for _, e := range script() { // one at a time, as Load records them
		record(t, live, e)
	}
	var whole, cut []byte
	for _, e := range script() {
		whole, _ = appendEvent(whole, &e)
	}
	snap := live.Snapshot()
	for _, e := range snap[:len(snap)/2] {
		cut, _ = appendEvent(cut, &e)
	}
	store.files[segmentName(1)], store.files[segmentName(2)] = whole, cut
	loaded, err := Load(ctx, store, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, live, loaded, at(10))
	delete(store.files, segmentName(1)) // nothing before it to fall back on
	if _, err := Load(ctx, store, Limits{}); err == nil || !strings.Contains(err.Error(), "a snapshot cut short") {
		t.Errorf("a log of only a snapshot cut short: %v", err)
	}
}
