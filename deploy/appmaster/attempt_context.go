package appmaster

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// recordWait bounds the AM's question to the RM about its application's
// attempts.
const recordWait = 30 * time.Second

// onRecord is the RM's record of the application's attempts, or why the
// AM could not read it.
type onRecord struct {
	attempts []*hadoopyarn.ApplicationAttemptReportProto
	err      error
}

// attemptJudge says, when the AM is told to stop, whether its attempt is
// the application's last: whether YARN would start no other were it to
// fail now. It judges by YARN's own rule (attemptRule) over the RM's
// record of the earlier attempts, read as the attempt starts (ended
// attempts' records do not change while it runs), with the clock at the
// signal: an earlier failure may have aged out of the validity interval
// since.
type attemptJudge struct {
	rule attemptRule
	own  int32
	// record brings the RM's record, once read; unjudged, when set,
	// says why the AM cannot judge at all.
	record   <-chan onRecord
	unjudged error
	log      logrus.FieldLogger
	// handingOver is set once the AM hands the application over, its own
	// node being decommissioned (am.ErrHandedOver): a termination then is
	// YARN taking the node back, after the AM released its container,
	// which YARN does not count, so no attempt is the last.
	handingOver *atomic.Bool
}

// newAttemptJudge settles the AM's rule from its settings and the RM's
// cap (yarn.resourcemanager.am.max-attempts, YARN's default 2 where the
// shipped configuration does not say) and starts reading the RM's
// record of its application's attempts.
func newAttemptJudge(ctx context.Context, conf *config.Config, c container, session bool, log logrus.FieldLogger) attemptJudge {
	j := attemptJudge{log: log, handingOver: &atomic.Bool{}}
	attempt, err := ownAttempt()
	if err != nil {
		j.unjudged = err
		return j
	}
	j.own = attempt.GetAttemptId()
	asked, err := settings.AppAttempts(conf, session)
	if err != nil {
		j.unjudged = err
		return j
	}
	rmCap, err := c.hconf.GetInt(rmMaxAttemptsKey, 2)
	if err != nil {
		j.unjudged = err
		return j
	}
	j.rule = newAttemptRule(asked, rmCap)
	if j.rule.knownLast() {
		return j
	}
	record := make(chan onRecord, 1)
	j.record = record
	go func() {
		rctx, cancel := context.WithTimeout(ctx, recordWait)
		defer cancel()
		attempts, err := attemptsOnRecord(rctx, conf, c.hconf, attempt.GetApplicationId())
		if err != nil {
			log.WithError(err).Warn("cannot read the application's attempts from the RM: a termination will leave it to a next attempt, if YARN starts one, without unregistering")
		} else {
			_, counted := j.rule.lastIfItFails(j.own, attempts, time.Now())
			log.Infof("attempt %d: %d earlier failed attempts count now; %v", j.own, counted, j.rule)
		}
		record <- onRecord{attempts, err}
	}()
	return j
}

// knownLast says whether the attempt is the last whatever its exit
// (attemptRule.knownLast): its executors need not outlive it.
func (j attemptJudge) knownLast() bool { return j.unjudged == nil && j.rule.knownLast() }

// lastAt says whether the attempt is the last were it to fail at now.
// Where the AM cannot tell (the RM's record unread, or unreadable) it is
// not: only an attempt known to be the last ends the application itself.
func (j attemptJudge) lastAt(now time.Time) bool {
	if j.handingOver != nil && j.handingOver.Load() {
		j.log.Info("terminated while handing the application over: its next attempt goes on")
		return false
	}
	if j.unjudged != nil {
		j.log.WithError(j.unjudged).Warn("cannot tell whether this attempt is the application's last: taking it as not")
		return false
	}
	if j.knownLast() {
		j.log.Infof("attempt %d is the last: %v", j.own, j.rule)
		return true
	}
	var rec onRecord
	select {
	case rec = <-j.record:
	default:
		rec.err = errors.New("the RM's record of the application's attempts is not read yet")
	}
	if rec.err != nil {
		j.log.WithError(rec.err).Warn("cannot tell whether this attempt is the application's last: taking it as not")
		return false
	}
	last, counted := j.rule.lastIfItFails(j.own, rec.attempts, now)
	j.log.Infof("attempt %d: %d earlier failed attempts count, %v: the last: %v", j.own, counted, j.rule, last)
	return last
}

// handOver notes that the AM hands the application over to its next
// attempt (am.Config.HandingOver).
func (j attemptJudge) handOver() { j.handingOver.Store(true) }

// attemptContext is the context the AM's work runs in, with the
// function that ends it, and terminated. A signal (ctx's end) is not a
// cancel unless the attempt is the application's last (j.lastAt): the
// work is left untouched for the next attempt, and terminated closes
// instead. In the last attempt the signal ends the work with its cause,
// and the AM unregisters with why.
func attemptContext(ctx context.Context, j attemptJudge) (work context.Context, end context.CancelCauseFunc, terminated <-chan struct{}) {
	work, end = context.WithCancelCause(context.WithoutCancel(ctx))
	term := make(chan struct{})
	go func() {
		select {
		case <-work.Done():
			return
		case <-ctx.Done():
		}
		if j.lastAt(time.Now()) {
			end(context.Cause(ctx))
			return
		}
		close(term)
	}()
	return work, end, term
}
