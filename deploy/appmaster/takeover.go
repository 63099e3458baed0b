package appmaster

import (
	"context"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// takeOver reads what the attempts before this one journalled, and
// starts this attempt's journal writer on from it. kept are the
// containers YARN kept from them. A journal that is refused (corrupt,
// another application's) is logged and replaced: the work it described
// starts over, and the containers kept are released, no task starting
// until they are gone (resumption).
func takeOver(ctx context.Context, a appMaster, kept []*hadoopyarn.ContainerProto) (*journal.Writer, *am.Resumption, <-chan struct{}, context.CancelFunc) {
	st, next, err := journal.Load(ctx, a.Journal, a.Core.AppID)
	if err != nil {
		a.Log.WithError(err).Error("the journal of the previous attempt is refused: its work starts over")
		st = journal.NewState(a.Core.AppID)
	}
	r := resumption(a, st, kept)
	w := journal.NewWriter(a.Journal, st, next, a.Log)
	wctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(wctx)
	}()
	return w, r, done, stop
}
