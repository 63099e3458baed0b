package journal

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"
)

const app = "application_1_0001"

func quiet() logrus.FieldLogger { l, _ := logtest.NewNullLogger(); return l }

func executor(c string) Entry {
	return Entry{Executor: &Executor{Container: c, Address: "node1:4000", Node: "node1:8041", NodeName: "node1", Profile: 0, GPUIndices: []string{"0"}}}
}

func job(id int) Entry {
	return Entry{Job: &Job{ID: id, Spec: []byte(`{"name":"j"}`), StageProfiles: []int{0, 0}}}
}

func ended(id int) Entry { return Entry{JobEnded: &id} }

func next(id int) Entry { return Entry{NextJob: &id} }

func done(j, s, i int) Entry { return TaskDone(j, s, i) }

// writer is attempt 1's writer of app's journal in store.
func writer(store Store, st *State) *Writer {
	return NewWriter(WriterConfig{Store: store, Attempt: 1, Log: quiet()}, st)
}

// doneCount is how many tasks of job j's the state holds as done.
func doneCount(j *JobState) int {
	n := 0
	for s := range j.Done {
		n += j.Done[s].Len()
	}
	return n
}

func failed(j, s, i int) Entry { return Entry{TaskFailed: &TaskRef{Job: j, Stage: s, Index: i}} }

// A task's failures read back counted, in a snapshot too; a task that
// succeeded since has none, and an ended job's are gone with it.
func TestTaskFailuresReadBack(t *testing.T) {
	ctx := context.Background()
	store := Dir(t.TempDir())
	w := writer(store, NewState(app))
	w.Append(job(1), job(2), failed(1, 0, 3), failed(1, 1, 0), failed(1, 0, 3), failed(1, 0, 4), done(1, 0, 4), failed(2, 0, 0), ended(2))
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	want := map[TaskRef]int{{Job: 1, Stage: 0, Index: 3}: 2, {Job: 1, Stage: 1, Index: 0}: 1}
	st, err := Load(ctx, store, app)
	if err != nil || len(st.Jobs) != 1 || !maps.Equal(st.Jobs[0].Failed, want) {
		t.Fatalf("%v, jobs %+v; want job 1 alone, failures %v", err, st.Jobs, want)
	}
	again := NewState(app)
	for _, e := range st.Entries() {
		if err := again.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if !maps.Equal(again.Jobs[0].Failed, want) {
		t.Fatalf("from a snapshot: failures %v, want %v", again.Jobs[0].Failed, want)
	}
	if err := again.Apply(failed(1, 2, 0)); err == nil {
		t.Fatal("a failure of a stage job 1 does not have was applied")
	}
}

// A writer's journal, read back, says what was appended: live jobs with
// their done tasks once each, executors not gone, and the job ids taken.
func TestWrittenJournalReadsBack(t *testing.T) {
	ctx := context.Background()
	store := Dir(t.TempDir())
	w := writer(store, NewState(app))
	w.Append(executor("c1"), executor("c2"), job(1), done(1, 0, 3), done(1, 0, 3), job(2))
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	w.Append(Entry{ExecutorGone: "c2"}, done(1, 1, 0), ended(2), job(3))
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := Load(ctx, store, app)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Executors) != 1 || st.Executors["c1"].Address != "node1:4000" || st.NextJob != 4 {
		t.Fatalf("executors %v, next job %d", st.Executors, st.NextJob)
	}
	if len(st.Jobs) != 2 || st.Jobs[0].ID != 1 || st.Jobs[1].ID != 3 || doneCount(st.Jobs[0]) != 2 ||
		!st.Jobs[0].Done[0].Has(3) || !st.Jobs[0].Done[1].Has(0) {
		t.Fatalf("jobs %+v", st.Jobs)
	}
}

// A job's stage shapes (a session's profiles made on demand) read back
// as written.
func TestStageShapesReadBack(t *testing.T) {
	ctx := context.Background()
	store := Dir(t.TempDir())
	w := writer(store, NewState(app))
	e := job(1)
	e.Job.StageProfiles = []int{0, 3}
	e.Job.StageShapes = []Shape{{Cores: 1, MemoryMB: 1024, GPUs: 1, Affinity: "spread", NodeLabel: "gpu-t4"},
		{Cores: 2, MemoryMB: 4096, Accels: map[string]int{"fpga": 2}, MaxPerNode: 1}}
	w.Append(e)
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := Load(ctx, store, app)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Jobs) != 1 || !reflect.DeepEqual(st.Jobs[0].StageShapes, e.Job.StageShapes) {
		t.Fatalf("jobs %+v, want stage shapes %+v", st.Jobs, e.Job.StageShapes)
	}
}

// Every SnapshotEvery deltas the writer writes a snapshot and removes
// the segments before it: the journal stays the size of the live state.
func TestSnapshotsBoundTheJournal(t *testing.T) {
	ctx := context.Background()
	store := Dir(t.TempDir())
	w := writer(store, NewState(app))
	w.Append(job(1))
	for i := 0; i < 3*SnapshotEvery; i++ {
		w.Append(done(1, 0, i))
		if err := w.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	names, _ := store.List(ctx)
	if len(names) > SnapshotEvery+1 {
		t.Errorf("%d segments after %d writes; want at most %d", len(names), 3*SnapshotEvery+1, SnapshotEvery+1)
	}
	st, err := Load(ctx, store, app)
	if err != nil || doneCount(st.Jobs[0]) != 3*SnapshotEvery {
		t.Fatalf("%v, %+v", err, st)
	}
	// Exactly SnapshotEvery deltas follow a snapshot, then one comes.
	kinds := ""
	for _, n := range names {
		data, _ := store.Read(ctx, n)
		kind, _, _ := Decode(n, data, app)
		kinds += string(kind[0])
	}
	if !strings.HasPrefix(kinds, "s") || strings.Count(kinds, "d") > SnapshotEvery {
		t.Errorf("segments %s", kinds)
	}
}

type failingStore struct {
	Dir
	fail bool
}

func (f *failingStore) Write(ctx context.Context, name string, data []byte) error {
	if f.fail {
		return errors.New("the store is away")
	}
	return f.Dir.Write(ctx, name, data)
}

// A delta that could not be written is not lost: the next segment is a
// snapshot holding it.
func TestAFailedWriteIsCoveredByASnapshot(t *testing.T) {
	ctx := context.Background()
	store := &failingStore{Dir: Dir(t.TempDir())}
	w := writer(store, NewState(app))
	w.Append(job(1))
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	store.fail = true
	w.Append(done(1, 0, 7))
	if err := w.Flush(ctx); err == nil {
		t.Fatal("no error from a store that fails")
	}
	store.fail = false
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := Load(ctx, store, app)
	if err != nil || len(st.Jobs) != 1 || doneCount(st.Jobs[0]) != 1 {
		t.Fatalf("%v, %+v", err, st)
	}
}

// Written is closed once what came before it is in the store, and not
// while the store refuses it.
func TestWrittenWaitsForTheStore(t *testing.T) {
	ctx := context.Background()
	store := &failingStore{Dir: Dir(t.TempDir()), fail: true}
	w := writer(store, NewState(app))
	w.Append(job(1))
	written := w.Written()
	w.Flush(ctx)
	select {
	case <-written:
		t.Fatal("Written is closed though the store refused the segment")
	default:
	}
	store.fail = false
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-written:
	default:
		t.Fatal("Written is still open after the segment was written")
	}
	if st, err := Load(ctx, store, app); err != nil || len(st.Jobs) != 1 {
		t.Fatalf("%+v, %v", st, err)
	}
	nothing := w.Written()
	w.Flush(ctx)
	select {
	case <-nothing:
	default:
		t.Fatal("Written with nothing pending is not closed by the next flush")
	}
}

// writeSegment writes segment n of attempt 1's chain.
func writeSegment(t *testing.T, dir Dir, n int, app string, kind Kind, entries ...Entry) {
	t.Helper()
	writeAttempts(t, dir, segment{1, n}, app, kind, entries...)
}

func writeAttempts(t *testing.T, dir Dir, seg segment, app string, kind Kind, entries ...Entry) {
	t.Helper()
	data, err := Encode(app, kind, entries)
	if err != nil {
		t.Fatal(err)
	}
	if err := dir.Write(context.Background(), seg.name(), data); err != nil {
		t.Fatal(err)
	}
}

func segmentName(n int) string { return segment{1, n}.name() }

// A journal that is corrupt, cut short, another application's, or says
// the impossible is refused whole, naming the segment and line.
func TestBadJournalsAreRefusedWhole(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, d Dir)
		want  string
	}{
		{"another application's", func(t *testing.T, d Dir) {
			writeSegment(t, d, 0, "application_1_0002", Snapshot, job(1))
		}, "a0000000001-0000000000.seg line 1: it is application application_1_0002's journal, not " + app + "'s"},
		{"a flipped byte", func(t *testing.T, d Dir) {
			writeSegment(t, d, 0, app, Snapshot, job(1))
			writeSegment(t, d, 1, app, Delta, done(1, 0, 1))
			p := filepath.Join(string(d), segmentName(1))
			b, _ := os.ReadFile(p)
			b[len(b)-3] ^= 1
			os.WriteFile(p, b, 0o600)
		}, "a0000000001-0000000001.seg line 2: checksum"},
		{"cut short", func(t *testing.T, d Dir) {
			writeSegment(t, d, 0, app, Snapshot, job(1))
			p := filepath.Join(string(d), segmentName(0))
			b, _ := os.ReadFile(p)
			os.WriteFile(p, b[:len(b)-5], 0o600)
		}, "cut short"},
		{"a task of a job never submitted", func(t *testing.T, d Dir) {
			writeSegment(t, d, 0, app, Snapshot, job(1))
			writeSegment(t, d, 1, app, Delta, done(1, 0, 1), done(2, 0, 0))
		}, "a0000000001-0000000001.seg line 3: job 2 was never submitted"},
		{"an entry of two kinds", func(t *testing.T, d Dir) {
			e := job(1)
			e.JobEnded = new(int)
			writeSegment(t, d, 0, app, Snapshot, e)
		}, "line 2: an entry sets 2 kinds of record"},
		{"a job of no stages", func(t *testing.T, d Dir) {
			writeSegment(t, d, 0, app, Snapshot, Entry{Job: &Job{ID: 0, Spec: []byte("{}")}})
		}, "line 2: job 0: no spec or no stages"},
		{"stage shapes not one per stage", func(t *testing.T, d Dir) {
			e := job(1)
			e.Job.StageShapes = []Shape{{Cores: 1}}
			writeSegment(t, d, 0, app, Snapshot, e)
		}, "line 2: job 1: 1 stage shapes for 2 stages"},
		{"a stage shape of no cores", func(t *testing.T, d Dir) {
			e := job(1)
			e.Job.StageShapes = []Shape{{Cores: 1}, {Cores: 0, MemoryMB: 512}}
			writeSegment(t, d, 0, app, Snapshot, e)
		}, "line 2: job 1: stage 1's shape {Cores:0 MemoryMB:512 GPUs:0}: want at least 1 core"},
		{"a stage shape of negative memory", func(t *testing.T, d Dir) {
			e := job(1)
			e.Job.StageShapes = []Shape{{Cores: 1, MemoryMB: -1}, {Cores: 1}}
			writeSegment(t, d, 0, app, Snapshot, e)
		}, "line 2: job 1: stage 0's shape"},
		{"a task of a stage the job has not", func(t *testing.T, d Dir) {
			writeSegment(t, d, 0, app, Snapshot, job(1), done(1, 2, 0))
		}, "line 3: job 1 has no stage 2"},
		{"a task index past any job's", func(t *testing.T, d Dir) {
			body := `{"tasksDone":{"job":1,"stage":0,"tasks":{"ranges":[0,16777217]}}}`
			writeRaw(t, d, segmentName(1), Delta, body)
			writeSegment(t, d, 0, app, Snapshot, job(1))
		}, "a0000000001-0000000001.seg line 2: tasks: range 0 to 16777217"},
		{"ranges out of order", func(t *testing.T, d Dir) {
			writeSegment(t, d, 0, app, Snapshot, job(1))
			writeRaw(t, d, segmentName(1), Delta, `{"tasksDone":{"job":1,"stage":0,"tasks":{"ranges":[5,9,7,12]}}}`)
		}, "line 2: tasks: range 7 to 12 after 9: want sorted, disjoint ranges"},
		{"tasks done of no task", func(t *testing.T, d Dir) {
			writeSegment(t, d, 0, app, Snapshot, job(1))
			writeRaw(t, d, segmentName(1), Delta, `{"tasksDone":{"job":1,"stage":0,"tasks":{"bitmap":"AAA="}}}`)
		}, "line 2: tasks: a bitmap of no task"},
		{"a segment missing from the chain", func(t *testing.T, d Dir) {
			writeSegment(t, d, 0, app, Snapshot, job(1))
			writeSegment(t, d, 2, app, Delta, done(1, 0, 1))
		}, "a0000000001-0000000002.seg: segment a0000000001-0000000001.seg before it is missing"},
		{"a journal of version 1", func(t *testing.T, d Dir) {
			d.Write(context.Background(), "0000000000.seg", []byte("spindle-journal 1 "+app+" snapshot\n"))
		}, "journal segment 0000000000.seg: a journal of version 1, whose names carry no attempt"},
		{"an entry of no kind", func(t *testing.T, d Dir) {
			writeSegment(t, d, 0, app, Snapshot, Entry{})
		}, "line 2: an entry sets 0 kinds of record"},
		{"deltas with no snapshot", func(t *testing.T, d Dir) {
			writeSegment(t, d, 3, app, Delta, job(1))
		}, "no snapshot"},
		{"an unknown field", func(t *testing.T, d Dir) {
			writeRaw(t, d, segmentName(0), Snapshot, `{"nextJob":1,"extra":1}`)
		}, `line 2: json: unknown field "extra"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Dir(t.TempDir())
			tc.setup(t, d)
			st, err := Load(context.Background(), d, app)
			if err == nil || !strings.Contains(err.Error(), tc.want) || st != nil {
				t.Fatalf("Load = %v, %v; want no state and an error containing %q", st, err, tc.want)
			}
			if !errors.Is(err, ErrRefused) || errors.Is(err, ErrUnreadable) {
				t.Errorf("%v: want it refused, not unreadable", err)
			}
			// The next attempt, starting afresh, replaces the refused
			// journal.
			w := NewWriter(WriterConfig{Store: d, Attempt: 2, Log: quiet()}, NewState(app))
			w.Append(job(5))
			if err := w.Flush(context.Background()); err != nil {
				t.Fatal(err)
			}
			if st, err := Load(context.Background(), d, app); err != nil || st.NextJob != 6 || len(st.Jobs) != 1 {
				t.Errorf("after a fresh start: %+v, %v", st, err)
			}
			if names, _ := d.List(context.Background()); len(names) != 1 {
				t.Errorf("after a fresh start the journal holds %v; want only the new snapshot", names)
			}
		})
	}
}

// Reading starts at the last snapshot: segments before it (a writer
// that died before removing them) change nothing.
func TestLoadStartsAtTheLastSnapshot(t *testing.T) {
	d := Dir(t.TempDir())
	writeSegment(t, d, 0, app, Snapshot, job(1), job(2))
	writeSegment(t, d, 1, app, Snapshot, job(2), next(3))
	writeSegment(t, d, 2, app, Delta, done(2, 1, 4))
	os.WriteFile(filepath.Join(string(d), "."+segmentName(3)+".tmp"), []byte("half"), 0o600)
	os.WriteFile(filepath.Join(string(d), "7.seg"), []byte("not a segment of this journal's naming"), 0o600)
	st, err := Load(context.Background(), d, app)
	if err != nil || len(st.Jobs) != 1 || st.Jobs[0].ID != 2 || st.NextJob != 3 || doneCount(st.Jobs[0]) != 1 {
		t.Fatalf("Load = %+v, %v", st, err)
	}
}

// A snapshot keeps the ids of jobs that ended, so the next attempt's
// jobs never reuse one.
func TestSnapshotKeepsEndedJobsIDs(t *testing.T) {
	st := NewState(app)
	for _, e := range []Entry{job(1), job(2), ended(2)} {
		if err := st.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	again := NewState(app)
	for _, e := range st.Entries() {
		if err := again.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if again.NextJob != 3 || len(again.Jobs) != 1 || again.NextStage != 2 {
		t.Fatalf("%+v; want next job 3, next stage 2 (job 1's two stages from 0)", again)
	}
	if err := again.Apply(next(1)); err != nil || again.NextJob != 3 {
		t.Errorf("a lower next job id: %v, next job %d; want it to change nothing", err, again.NextJob)
	}
	if err := again.Apply(job(2)); err == nil {
		t.Error("job 2 submitted again after the snapshot; want it refused")
	}
}

// Job ids start at 0, as the scheduler's do; a negative one is refused.
func TestJobIDsStartAtZero(t *testing.T) {
	st := NewState(app)
	if err := st.Apply(job(0)); err != nil || st.NextJob != 1 {
		t.Fatalf("job 0: %v, next job %d", err, st.NextJob)
	}
	if err := st.Apply(done(0, 1, 0)); err != nil {
		t.Fatal(err)
	}
	if err := st.Apply(done(-1, 0, 0)); err == nil {
		t.Error("a task of job -1 is accepted")
	}
	if err := st.Apply(done(0, 0, -1)); err == nil {
		t.Error("task -1 is accepted")
	}
	if err := st.Apply(next(-1)); err == nil {
		t.Error("next job -1 is accepted")
	}
}

func FuzzDecode(f *testing.F) {
	seed, _ := Encode(app, Delta, []Entry{job(1), done(1, 0, 2), executor("c"), {ExecutorGone: "c"}, ended(1)})
	f.Add(seed)
	f.Add([]byte("spindle-journal 2 " + app + " snapshot\n"))
	shaped := job(2)
	shaped.Job.StageShapes = []Shape{{Cores: 1, MemoryMB: 2048}, {Cores: 4, MemoryMB: 1024, GPUs: 2}}
	seed, _ = Encode(app, Delta, []Entry{shaped})
	f.Add(seed)
	scattered := TaskDone(2, 1, 3)
	for i := 5; i < 400; i += 3 {
		scattered.TasksDone.Tasks.Add(i)
	}
	seed, _ = Encode(app, Snapshot, []Entry{shaped, scattered, TaskDone(2, 0, 70)})
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		_, entries, err := Decode("fuzz.seg", data, app)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "journal segment fuzz.seg line ") {
				t.Fatalf("error %q does not name the segment and line", err)
			}
			return
		}
		st := NewState(app)
		for _, e := range entries {
			st.Apply(e)
		}
	})
}

// writeRaw writes a segment of one entry whose JSON is body, checksummed.
func writeRaw(t *testing.T, d Dir, name string, kind Kind, body string) {
	t.Helper()
	data := fmt.Appendf(nil, "spindle-journal 2 %s %s\n%08x %s\n", app, kind, crc32.Checksum([]byte(body), castagnoli), body)
	if err := d.Write(context.Background(), name, data); err != nil {
		t.Fatal(err)
	}
}
