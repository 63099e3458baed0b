package scheduler

import (
	"fmt"
	"slices"
	"strings"
)

func (h *harness) restore(stage StageID, idx int) {
	h.t.Helper()
	if err := h.s.RestoreSucceeded(h.now, TaskID{stage, idx}); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) adopt(ex string, a AttemptID, addrs ...string) {
	h.t.Helper()
	if err := h.s.Adopt(h.now, ExecutorID(ex), a, addrs); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) must(err error) {
	h.t.Helper()
	if err != nil {
		h.t.Fatal(err)
	}
}

// attempt names attempt n of task idx of stage st.
func attempt(st StageID, idx, n int) AttemptID { return AttemptID{TaskID{st, idx}, n} }

// snapshot renders everything a restore could change, so that a refused
// one can be shown to have changed nothing.
func snapshot(s *Scheduler) string {
	var b strings.Builder
	for _, j := range s.jobsInOrder() {
		fmt.Fprintf(&b, "job %d: done %d running %d ended %v killing %d failed %d\n", j.id, j.done, j.running, j.ended, j.killing, j.failedAttempts)
		for _, st := range j.stages {
			snapshotStage(&b, st)
		}
	}
	for _, p := range append([]*pool{s.root}, s.poolOrder...) {
		fmt.Fprintf(&b, "pool %s: running %d jobs %d rank %d\n", p.cfg.Name, p.running, p.jobs, p.rankIdx)
	}
	ids := make([]string, 0, len(s.executors))
	for id := range s.executors {
		ids = append(ids, string(id))
	}
	slices.Sort(ids)
	for _, id := range ids {
		ex := s.executors[ExecutorID(id)]
		fmt.Fprintf(&b, "executor %s: free %d gpus %v disabled %v bit %v running", id, ex.freeCores, ex.gpus.free, ex.disabled, ex.profile.free[ex.slot/64]&(1<<(ex.slot%64)) != 0)
		for _, r := range ex.running {
			fmt.Fprintf(&b, " s%d/%d%v", r.st.id, r.idx, r.addrs)
		}
		b.WriteString("\n")
	}
	var classes []string
	for _, c := range s.classes {
		classes = append(classes, fmt.Sprintf("class %+v: members %d queued %d", c.key, c.members, c.queued))
	}
	slices.Sort(classes)
	fmt.Fprintf(&b, "%s\nlive %d blocked %d backoffs %d out %d/%d/%d/%d\n", strings.Join(classes, "\n"), s.liveClasses, s.blockedClasses,
		len(s.backoffs), len(s.out.Launches), len(s.out.Kills), len(s.out.StagesSucceeded), len(s.out.Finished))
	return b.String()
}

func snapshotStage(b *strings.Builder, st *stage) {
	fmt.Fprintf(b, "  stage %d: runnable %v launched %d fresh end %d retries %v running %d succeeded %d backing off %d rank %d\n",
		st.id, st.runnable, st.launched, st.freshEnd, st.retries[st.retryHead:], st.running, st.succeeded, st.backingOff, st.rankIdx)
	for c, ch := range st.chunks {
		fmt.Fprintf(b, "    chunk %d: left %d dropped %v:", c, ch.left, ch.tasks == nil)
		for i, t := range ch.tasks {
			if t.state != taskPending || t.attempts > 0 {
				fmt.Fprintf(b, " %d=%d/%d/%d", c*chunkTasks+i, t.state, t.attempts, t.failures)
			}
		}
		b.WriteString("\n")
	}
}
