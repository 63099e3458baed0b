package journal

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	logtest "github.com/sirupsen/logrus/hooks/test"
)

// A session whose tasks succeed 2,000 a second costs the store at most
// SegmentsPerSecond segments a second (and one more as the writer
// ends), each Written is closed within CommitInterval, and every
// success is in the journal. On a fake clock (synctest), so the figures
// are exact.
func TestGroupCommitBoundsTheSegmentRate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const perSecond, seconds, tick = 2000, 4, 10 * time.Millisecond
		store := newMemStore()
		w := attemptWriter(store, 1, NewState(app))
		w.Append(job(0))
		ctx, stop := context.WithCancel(context.Background())
		ran := make(chan struct{})
		go func() {
			defer close(ran)
			w.Run(ctx)
		}()
		var mu sync.Mutex
		var slowest time.Duration
		var waits sync.WaitGroup
		task := 0
		for range seconds * int(time.Second/tick) {
			for range perSecond * tick / time.Second {
				w.Append(done(0, 0, task))
				task++
			}
			written, asked := w.Written(), time.Now()
			waits.Go(func() {
				<-written
				mu.Lock()
				slowest = max(slowest, time.Since(asked))
				mu.Unlock()
			})
			time.Sleep(tick)
		}
		stop()
		<-ran
		waits.Wait()
		writes := store.writes
		for i := 0; i+SegmentsPerSecond < len(writes)-1; i++ {
			if gap := writes[i+SegmentsPerSecond].Sub(writes[i]); gap < time.Second {
				t.Fatalf("segments %d to %d written within %v: more than %d a second", i, i+SegmentsPerSecond, gap, SegmentsPerSecond)
			}
		}
		if most := seconds*SegmentsPerSecond + 2; len(writes) > most {
			t.Errorf("%d segments in %ds; want at most %d", len(writes), seconds, most)
		}
		t.Logf("%d segments in %ds, the slowest Written %v", len(writes), seconds, slowest)
		if slowest > CommitInterval {
			t.Errorf("a Written was closed %v after it was asked for; want within %v", slowest, CommitInterval)
		}
		if n := load(t, store).Jobs[0].Done[0].Len(); n != task {
			t.Errorf("%d successes in the journal; want all %d", n, task)
		}
	})
}

// meterRecord notes what a writer told its Meter.
type meterRecord struct {
	written, refused []int
	journal          int
}

func (m *meterRecord) JournalWritten(n, journal int) {
	m.written, m.journal = append(m.written, n), journal
}
func (m *meterRecord) JournalRefused(n int) { m.refused = append(m.refused, n) }

// limitedStore is a memStore that holds segments of at most limit bytes.
type limitedStore struct {
	*memStore
	limit int
}

func (l limitedStore) SegmentLimit() int { return l.limit }

// A segment over the limit, MaxSegmentBytes (which a reader would
// refuse) or less where the store says so, is not written: it is logged
// with its size and the limit and counted. A delta gives way to a
// snapshot, and a snapshot over the limit to one of the ids taken only,
// which the next attempt reads (starting that work over, its jobs
// numbered past it); jobs submitted after it are journalled again.
func TestASegmentOverTheLimitIsNeverWritten(t *testing.T) {
	store := newMemStore()
	log, hook := logtest.NewNullLogger()
	meter := &meterRecord{}
	w := NewWriter(WriterConfig{Store: limitedStore{store, 1024}, Attempt: 1, Log: log, Meter: meter}, NewState(app))
	flush(t, w, job(0))
	big := job(1)
	big.Job.Spec = []byte(`{"name":"` + strings.Repeat("j", 2000) + `"}`)
	w.Append(big)
	cutOff := w.Written()
	if err := w.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(meter.refused) != 2 || meter.refused[0] <= 1024 || meter.refused[1] <= 1024 {
		t.Errorf("refused %v; want the delta and the snapshot over 1024 bytes counted", meter.refused)
	}
	said := 0
	for _, e := range hook.AllEntries() {
		if strings.Contains(e.Message, "over the limit") && e.Data["limit"] == 1024 && e.Data["bytes"].(int) > 1024 {
			said++
		}
	}
	if said != 2 {
		t.Errorf("%d log lines say a segment is over the limit with its size and the limit; want 2", said)
	}
	select {
	case <-cutOff:
		t.Error("Written is closed though the job is not in the journal")
	default:
	}
	st := load(t, store)
	if len(st.Jobs) != 0 || st.NextJob != 2 || st.NextStage != 2 {
		t.Errorf("read %d jobs, next job %d, next stage %d; want none, 2 and 2", len(st.Jobs), st.NextJob, st.NextStage)
	}
	flush(t, w, job(2), done(1, 0, 3))
	if st := load(t, store); len(st.Jobs) != 1 || st.Jobs[0].ID != 2 || store.bytes() > 1024 || meter.journal != store.bytes() {
		t.Errorf("then: %d jobs, %d bytes (the meter says %d)", len(st.Jobs), store.bytes(), meter.journal)
	}
}

// A store's limit lowers the writer's, never raises it past what a
// reader takes.
func TestAStoreLimitsOnlyDownwards(t *testing.T) {
	for limit, want := range map[int]int{1024: 1024, MaxSegmentBytes + 1: MaxSegmentBytes} {
		if w := NewWriter(WriterConfig{Store: limitedStore{newMemStore(), limit}}, NewState(app)); w.limit != want {
			t.Errorf("a store limited to %d: the writer's limit is %d, want %d", limit, w.limit, want)
		}
	}
	if w := NewWriter(WriterConfig{Store: newMemStore()}, NewState(app)); w.limit != MaxSegmentBytes {
		t.Errorf("a store without a limit: the writer's is %d, want MaxSegmentBytes", w.limit)
	}
}

// A writer's Run writes its snapshot of what it took over at once,
// before anything is appended: from then on its attempt's chain is the
// one read, whatever an older attempt writes.
func TestAWriterStartsItsChainAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := newMemStore()
		flush(t, attemptWriter(store, 1, NewState(app)), job(0))
		w := attemptWriter(store, 2, load(t, store))
		ctx, stop := context.WithCancel(context.Background())
		ran := make(chan struct{})
		go func() {
			defer close(ran)
			w.Run(ctx)
		}()
		synctest.Wait()
		names, _ := store.List(ctx)
		stop()
		<-ran
		if want := []string{segment{2, 0}.name()}; !slices.Equal(names, want) {
			t.Errorf("before any append the journal holds %v; want %v", names, want)
		}
	})
}
