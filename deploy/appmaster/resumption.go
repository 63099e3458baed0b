package appmaster

import (
	"context"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/handover"
	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/executor/contain"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// resumption is what this attempt takes over from the ones before it:
// st, what their journal says (an empty state without one: switched
// off, a keytab's failed login, or one refused), and the containers
// YARN kept, which are taken over whatever the journal says, adopted or
// released (am's kept.go). Every attempt after the first has one, for
// an RM that restarted names kept containers in later allocates too;
// the first has none unless the journal says something.
func resumption(a appMaster, st *journal.State, kept []*hadoopyarn.ContainerProto) *am.Resumption {
	if !handover.TakesOver(a.Attempt, st, len(kept)) {
		return nil
	}
	a.Log.WithFields(logrus.Fields{"jobs": len(st.Jobs), "kept_containers": len(kept), "journalled_executors": len(st.Executors)}).
		Info("going on with the previous attempt's work")
	return &am.Resumption{State: st, Kept: kept, Wait: a.AdoptWait, Stop: a.KeptStopWait, Dial: func(ctx context.Context, addr string) (*wire.Conn, error) {
		return wire.Dial(ctx, "tcp", addr, a.Secret)
	}}
}

// keptStopWait bounds how long a kept container this attempt released
// holds placement while its NodeManager has not said it stopped
// (handover.StopWait): its executor, which no attempt reached, stops its
// tasks itself within rejoin (spindle.yarn.executor.rejoinTimeout) of
// losing its ApplicationMaster, and they end within their grace to stop.
func keptStopWait(rejoin time.Duration) time.Duration {
	return handover.StopWait(rejoin, contain.DefaultGrace)
}
