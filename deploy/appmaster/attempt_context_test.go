package appmaster

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// judged is a judge of attempt own under rule whose RM record is rec
// (nil: not read yet).
func judged(rule attemptRule, own int32, rec *onRecord) attemptJudge {
	record := make(chan onRecord, 1)
	if rec != nil {
		record <- *rec
	}
	return attemptJudge{rule: rule, own: own, record: record, log: quiet()}
}

// handingOver is j once the AM has begun to hand the application over.
func handingOver(j attemptJudge) attemptJudge {
	j.handingOver = &atomic.Bool{}
	j.handOver()
	return j
}

// signalled runs attemptContext under j, signals it with a cause, and
// says whether the signal ended the work (with the signal's cause) or
// closed terminated: exactly one of them, never both.
func signalled(t *testing.T, j attemptJudge) (ended bool) {
	t.Helper()
	ctx, signal := context.WithCancelCause(context.Background())
	work, end, terminated := attemptContext(ctx, j)
	defer end(nil)
	cause := errors.New("interrupted by terminated")
	signal(cause)
	select {
	case <-work.Done():
		if !errors.Is(context.Cause(work), cause) {
			t.Errorf("the work ended with %v; want the signal's cause", context.Cause(work))
		}
		select {
		case <-terminated:
			t.Error("the work ended and terminated closed too")
		default:
		}
		return true
	case <-terminated:
		if work.Err() != nil {
			t.Errorf("terminated closed and the work ended too: %v", context.Cause(work))
		}
		return false
	case <-time.After(amtest.Patience):
		t.Fatal("a signal neither ended the work nor closed terminated")
		return false
	}
}

// A signal ends the work (then the AM unregisters) only in an attempt
// the RM's record shows to be the last; in any other, and wherever the
// AM cannot tell, it closes terminated and leaves the work untouched for
// the next attempt.
func TestASignalEndsTheWorkOnlyInTheLastAttempt(t *testing.T) {
	// The judge reads the clock at the signal.
	earlier := []*hadoopyarn.ApplicationAttemptReportProto{failed(1, time.Now().Add(-10*time.Second), 1), running(2)}
	for _, c := range []struct {
		name  string
		judge attemptJudge
		ends  bool
	}{
		{"the last by the record", judged(attemptRule{Max: 2}, 2, &onRecord{attempts: earlier}), true},
		{"an earlier failure forgotten", judged(attemptRule{Max: 2, Validity: 5 * time.Second}, 2, &onRecord{attempts: earlier}), false},
		{"the first", judged(attemptRule{Max: 2}, 1, &onRecord{attempts: []*hadoopyarn.ApplicationAttemptReportProto{running(1)}}), false},
		{"one attempt allowed", judged(attemptRule{Max: 1}, 1, nil), true},
		{"the record not read yet", judged(attemptRule{Max: 2}, 2, nil), false},
		{"the RM could not be asked", judged(attemptRule{Max: 2}, 2, &onRecord{err: errNoKeytab}), false},
		{"no rule", attemptJudge{unjudged: errors.New("CONTAINER_ID: bad"), log: quiet()}, false},
		// The AM released its own container, its node being
		// decommissioned: YARN counts no failure, and starts another.
		{"handing over in the last by the record", handingOver(judged(attemptRule{Max: 2}, 2, &onRecord{attempts: earlier})), false},
		{"handing over with one attempt allowed", handingOver(judged(attemptRule{Max: 1}, 1, nil)), false},
	} {
		if got := signalled(t, c.judge); got != c.ends {
			t.Errorf("%s: the signal ended the work: %v; want %v", c.name, got, c.ends)
		}
	}
}

// Work that ended by itself is not touched by a later signal.
func TestASignalAfterTheWorkEndedDoesNothing(t *testing.T) {
	ctx, signal := context.WithCancelCause(context.Background())
	work, end, terminated := attemptContext(ctx, judged(attemptRule{Max: 1}, 1, nil))
	end(nil)
	<-work.Done()
	signal(errors.New("interrupted"))
	if !errors.Is(context.Cause(work), context.Canceled) {
		t.Errorf("the work's cause %v; want its own end's", context.Cause(work))
	}
	select {
	case <-terminated:
		t.Error("terminated closed after the work had ended")
	default:
	}
}

// Only an application allowed one attempt makes each attempt known to
// be the last as it starts (its executors then end with it); an AM that
// cannot read its own attempt or the RM's cap cannot judge, and takes
// its attempt as not the last.
func TestAttemptJudgeFromTheContainer(t *testing.T) {
	for _, c := range []struct {
		name, containerID string
		set               []string
		rmCap             string
		known, unjudged   bool
	}{
		{"one attempt asked", "container_1795700000000_0007_01_000001", []string{"spindle.yarn.maxAppAttempts=1"}, "", true, false},
		{"the RM's cap of one", "container_1795700000000_0007_01_000001", nil, "1", true, false},
		{"a bad CONTAINER_ID", "not-a-container", []string{"spindle.yarn.maxAppAttempts=1"}, "", false, true},
		{"an unreadable cap", "container_1795700000000_0007_01_000001", []string{"spindle.yarn.maxAppAttempts=1"}, "many", false, true},
	} {
		t.Setenv("CONTAINER_ID", c.containerID)
		conf, err := config.Load(nil, c.set)
		if err != nil {
			t.Fatal(err)
		}
		hconf := hadoopconf.New(hadoopconf.Env{})
		if c.rmCap != "" {
			hconf.Set(rmMaxAttemptsKey, c.rmCap)
		}
		j := newAttemptJudge(context.Background(), conf, container{hconf: hconf}, false, quiet())
		if j.knownLast() != c.known || (j.unjudged != nil) != c.unjudged {
			t.Errorf("%s: known last %v, unjudged %v; want %v, %v", c.name, j.knownLast(), j.unjudged, c.known, c.unjudged)
		}
	}
}

// The AM's own container and node are read from its environment, or
// not at all.
func TestOwnContainerFromTheEnvironment(t *testing.T) {
	env := map[string]string{"CONTAINER_ID": "container_1795251528476_0003_02_000001", "NM_HOST": "nm1", "NM_PORT": "8041"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	id, node := ownContainer(lookup)
	if id.GetId() != 1 || id.GetAppAttemptId().GetAttemptId() != 2 || node != "nm1:8041" {
		t.Errorf("own container %v on %q; want container 1 of attempt 2 on nm1:8041", id, node)
	}
	delete(env, "NM_PORT")
	if id, node := ownContainer(lookup); id != nil || node != "" {
		t.Errorf("without NM_PORT: %v on %q; want neither", id, node)
	}
}
