package history

import (
	"context"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"
)

// partStore reads parts of a memStore's segments and counts the bytes
// each read handed out: it has no Read, so a Summarize that replayed a
// log would not build.
type partStore struct {
	m    *memStore
	read map[string]int
}

func (p *partStore) List(ctx context.Context) ([]string, error) { return p.m.List(ctx) }

func (p *partStore) ReadHead(ctx context.Context, name string, n int) ([]byte, bool, error) {
	data, err := p.m.Read(ctx, name)
	if n < len(data) {
		data = data[:n]
	}
	p.read[name] += len(data)
	return data, err == nil && len(data) == len(p.m.files[name]), err
}

func (p *partStore) ReadTail(ctx context.Context, name string, n int) ([]byte, bool, error) {
	data, err := p.m.Read(ctx, name)
	whole := n >= len(data)
	if !whole {
		data = data[len(data)-n:]
	}
	p.read[name] += len(data)
	return data, whole, err
}

// writeLog logs events in segments of at most roll bytes.
func writeLog(t *testing.T, roll int, events ...Event) *partStore {
	t.Helper()
	m := newMemStore()
	w := NewWriter(m, nil, logrus.New())
	w.roll = roll
	w.Append(events...)
	if err := w.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	return &partStore{m: m, read: map[string]int{}}
}

// A summary names the application and says how it ended, from its first
// and last segments alone.
func TestASummaryReadsTheFirstAndLastSegmentsAlone(t *testing.T) {
	events := append(script(), Event{Time: at(9), AppEnded: &AppEnded{Succeeded: false, Diagnostics: "job 0 failed"}})
	store := writeLog(t, 400, events...)
	sum, err := Summarize(context.Background(), store)
	if err != nil {
		t.Fatal(err)
	}
	if sum.ID != "application_1_0001" || sum.Name != "train" || sum.User != "alice" || !sum.Started.Equal(at(0)) ||
		!sum.Ended.Equal(at(9)) || sum.State != JobFailed || sum.Diagnostics != "job 0 failed" {
		t.Errorf("summary %+v", sum)
	}
	names, _ := store.List(context.Background())
	if len(names) < 4 {
		t.Fatalf("segments %q: want the log rolled into four or more", names)
	}
	for _, n := range names[1 : len(names)-1] {
		if store.read[n] > 0 {
			t.Errorf("segment %s was read (%d bytes); want the first and last alone", n, store.read[n])
		}
	}
}

// A log with no end is a running application's.
func TestALogWithNoEndIsRunning(t *testing.T) {
	sum, err := Summarize(context.Background(), writeLog(t, 1<<20, script()...))
	if err != nil {
		t.Fatal(err)
	}
	if sum.State != JobRunning || !sum.Ended.IsZero() {
		t.Errorf("summary %+v: want running, no end", sum)
	}
}

// A snapshot ends with its timeline, after the application's end: a
// timeline longer than a first read has the summary read more.
func TestASummaryReadsPastASnapshotsTimeline(t *testing.T) {
	s := NewStore(Limits{TimelinePoints: 2000})
	record(t, s, script()...)
	record(t, s, Event{Time: at(9), AppEnded: &AppEnded{Succeeded: true}})
	snap := s.Snapshot()
	pool := strings.Repeat("p", 100)
	tl := &TimelineState{Step: 1}
	for i := range 1000 {
		tl.Points = append(tl.Points, Point{Time: at(float64(i)), Waiting: map[string]int{pool: i}})
	}
	snap[len(snap)-1].Timeline = tl
	store := writeLog(t, 8<<20, snap...)
	if n := len(store.m.files[segmentName(1)]); n < 2*partBytes {
		t.Fatalf("the snapshot is %d bytes: want its timeline past a first read", n)
	}
	sum, err := Summarize(context.Background(), store)
	if err != nil || sum.State != JobSucceeded || !sum.Ended.Equal(at(9)) {
		t.Errorf("summary %+v, %v: want succeeded at %v", sum, err, at(9))
	}
}

// A log that names no application is no summary, and says so.
func TestASummaryOfALogWithNoStartIsAnError(t *testing.T) {
	store := writeLog(t, 1<<20, script()[1:]...)
	if _, err := Summarize(context.Background(), store); err == nil || !strings.Contains(err.Error(), "no application started") {
		t.Errorf("summary of a log with no start: %v", err)
	}
	if _, err := Summarize(context.Background(), &partStore{m: newMemStore()}); err == nil {
		t.Error("summary of an empty log: no error")
	}
}
