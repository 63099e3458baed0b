package appmaster

import (
	"context"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/handover"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// journalReadWait bounds how long an attempt tries again to read a
// journal whose store fails before it goes on without the earlier
// attempts' work (handover.ReadWait).
const journalReadWait = handover.ReadWait

// takeOver reads what the attempts before this one journalled, and
// starts this attempt's journal writer on from it, telling meter what
// it writes. kept are the containers YARN kept from them. A journal
// that is refused (corrupt, another application's) is logged and
// replaced: the work it described starts over, and the containers kept
// are released, no task starting until they are gone (resumption). One
// that cannot be read for journalReadWait is treated alike, but its
// segments are kept: this attempt's own, under its own attempt's names,
// take precedence over them.
func takeOver(ctx context.Context, a appMaster, kept []*hadoopyarn.ContainerProto, meter journal.Meter) (*journal.Writer, *am.Resumption, <-chan struct{}, context.CancelFunc) {
	st, known := readJournal(ctx, a.Journal, a.Core.AppID, a.Log)
	r := resumption(a, st, kept)
	w := journal.NewWriter(journal.WriterConfig{Store: a.Journal, Attempt: a.Attempt, KeepEarlier: !known, Log: a.Log, Meter: meter}, st)
	wctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(wctx)
	}()
	return w, r, done, stop
}

// readJournal reads the earlier attempts' journal, trying a store that
// fails again, with backoff, for up to journalReadWait (handover.Reading
// says when). known says whether their segments are known (read, or
// refused as corrupt): a writer may then remove them. Nothing is
// written before this returns.
func readJournal(ctx context.Context, store journal.Store, app string, log logrus.FieldLogger) (st *journal.State, known bool) {
	r := handover.StartReading(time.Now())
	for {
		st, err := journal.Load(ctx, store, app)
		read := r.Tried(time.Now(), app, st, err)
		if !read.Done && ctx.Err() != nil {
			read = handover.Read{Done: true, State: journal.NewState(app), GaveUp: true}
		}
		switch {
		case read.Refused:
			log.WithError(err).Error("the journal of the previous attempt is refused: its work starts over")
		case read.GaveUp:
			log.WithError(err).Errorf("the journal of the previous attempt could not be read in %v: its work starts over, and its segments are kept", journalReadWait)
		case !read.Done:
			log.WithError(err).Warnf("the journal of the previous attempt could not be read: trying again in %v", read.Again)
		}
		if read.Done {
			return read.State, read.Known
		}
		select {
		case <-ctx.Done():
		case <-time.After(read.Again):
		}
	}
}
