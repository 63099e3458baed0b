package faultsim

import (
	"fmt"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/handover"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/scheduler"
)

// followFor is how long a client following a job whose AM went away
// looks for the session's next attempt (deploy/session.FollowJob).
const followFor = 2 * time.Minute

// client is a session client: it submits its jobs one after another and
// follows each by its id, across AM attempts, to its end.
type client struct {
	w    *world
	i    int
	plan ClientPlan
	next int // the next job to submit
	cur  *clientJob
}

// clientJob is a job of a client's, from its submit to its end (or the
// client's word that it is lost).
type clientJob struct {
	c    *client
	name string
	plan JobPlan
	// a is the attempt it talks to: submitting, or following.
	a        *attempt
	id       scheduler.JobID
	acked    bool
	final    *core.JobInfo // an end told before the submit's answer
	giveUpAt time.Time     // while looking for a next attempt
}

func newClient(w *world, i int, plan ClientPlan) *client {
	c := &client{w: w, i: i, plan: plan}
	if len(plan.Jobs) > 0 {
		w.at(epoch.Add(plan.Jobs[0].At), c.submitNext)
	}
	return c
}

func (c *client) done() bool { return c.next >= len(c.plan.Jobs) && c.cur == nil }

// jobName is client i's k-th job's name: unique in a run.
func jobName(i, k int) string { return fmt.Sprintf("c%d-j%d", i, k) }

func (c *client) submitNext() {
	if c.cur != nil || c.next >= len(c.plan.Jobs) {
		return
	}
	j := &clientJob{c: c, name: jobName(c.i, c.next), plan: c.plan.Jobs[c.next]}
	c.next++
	c.cur = j
	j.submit()
}

// finished ends the client's current job; the next follows, no sooner
// than planned.
func (c *client) finished(why string) {
	c.w.logf("client %d: %s %s", c.i, c.cur.name, why)
	c.w.count("client job " + strings.Fields(why)[0])
	c.cur = nil
	if c.next < len(c.plan.Jobs) {
		c.w.at(epoch.Add(c.plan.Jobs[c.next].At), c.submitNext)
	}
}

// submit sends the job to the session's AM, once one serves.
func (j *clientJob) submit() {
	w := j.c.w
	a := w.live
	if a == nil || a.core == nil {
		w.after(time.Second, j.submit)
		return
	}
	j.a = a
	w.after(w.latency(), func() {
		if !a.dead {
			a.submit(j)
		}
	})
}

// submit takes a client's job: answered once journalled (or after
// journalWait), the client following it from then.
func (a *attempt) submit(j *clientJob) {
	w := a.w
	spec := jobSpec(j.name, j.plan)
	id, err := a.core.Submit(w.now, spec, nil)
	if err != nil {
		w.after(w.latency(), func() { j.c.finished("refused: " + err.Error()) })
		return
	}
	w.logf("attempt %d takes %s as job %d", a.n, j.name, id)
	w.h.jobID(a, id, j.name)
	a.followers[id] = append(a.followers[id], j)
	p := pendingAck{job: j, id: id}
	if a.writer != nil {
		if e, err := handover.Job(a.core, id, spec); err == nil {
			a.journal(e)
		}
		p.written, p.deadline = a.writer.Written(), w.now.Add(journalWait)
		a.poke()
		w.after(journalWait, a.answerSubmits)
	}
	a.acks = append(a.acks, p)
	a.answerSubmits()
}

// accepted is the submit's answer: the client follows job id.
func (j *clientJob) accepted(a *attempt, id scheduler.JobID) {
	if j.c.cur != j || j.acked {
		return
	}
	j.id, j.acked = id, true
	if j.final != nil {
		j.ended(a, *j.final)
	}
}

// tellFollowers tells the clients following job id that it ended.
func (a *attempt) tellFollowers(id scheduler.JobID) {
	w := a.w
	info, _ := a.core.Job(w.now, id)
	for _, j := range a.followers[id] {
		w.after(w.latency(), func() {
			if !a.dead && j.c.cur == j && j.a == a {
				j.ended(a, info)
			}
		})
	}
	delete(a.followers, id)
}

// ended is the job's end as the client hears it: it must be its own
// job, ending as its tasks said.
func (j *clientJob) ended(a *attempt, info core.JobInfo) {
	if !j.acked {
		j.final = &info
		return
	}
	h := j.c.w.h
	if info.Name != j.name {
		h.violate(OthersJob, fmt.Sprintf("client %d following job %d (%s) was told job %d ended: %s's", j.c.i, j.id, j.name, info.ID, info.Name))
	}
	if why := h.wrongResult(j.name, info.State == core.JobSucceeded); why != "" {
		h.violate(JobResult, fmt.Sprintf("client %d was told its job %d ended %s", j.c.i, j.id, why))
	}
	j.c.finished(fmt.Sprintf("ended %s in attempt %d", info.State, a.n))
}

// lost: attempt a died. A submit not yet answered is lost; a job
// followed is looked for in the next attempt, for up to followFor.
func (c *client) lost(a *attempt) {
	j := c.cur
	if j == nil || j.a != a {
		return
	}
	w := c.w
	if !j.acked {
		w.after(w.latency(), func() {
			if c.cur == j {
				c.finished("unanswered: its AM died")
			}
		})
		return
	}
	j.giveUpAt = w.now.Add(followFor)
	w.after(w.latency(), j.follow)
}

// follow looks for the session's next attempt every second and follows
// the job there by its id.
func (j *clientJob) follow() {
	w := j.c.w
	if j.c.cur != j {
		return
	}
	a := w.live
	if a == nil || a.core == nil {
		if w.now.Before(j.giveUpAt) {
			w.after(time.Second, j.follow)
		} else {
			j.c.finished("lost: no attempt of the session answered")
		}
		return
	}
	j.a = a
	w.after(w.latency(), func() {
		if !a.dead {
			a.follow(j)
		}
	})
}

// follow answers a client following job j.id, as am's followRequest.
func (a *attempt) follow(j *clientJob) {
	w := a.w
	info, ok := a.core.Job(w.now, j.id)
	if !ok {
		w.after(w.latency(), func() { j.c.finished(fmt.Sprintf("lost: attempt %d has no job %d", a.n, j.id)) })
		return
	}
	if info.Name != j.name {
		w.h.violate(OthersJob, fmt.Sprintf("client %d following job %d (%s) in attempt %d follows %s", j.c.i, j.id, j.name, a.n, info.Name))
		return
	}
	if info.State != core.JobRunning {
		w.after(w.latency(), func() { j.ended(a, info) })
		return
	}
	a.followers[j.id] = append(a.followers[j.id], j)
}

// jobSpec is a job's spec: one stage of tasks of a GPU each.
func jobSpec(name string, plan JobPlan) *jobspec.Job {
	spec, err := jobspec.Short(name, plan.Tasks, []string{"true"}, jobspec.Defaults{CPUs: 1, GPUs: 1, MaxAttempts: MaxAttempts})
	if err != nil {
		panic(err) // the simulator's own
	}
	return spec
}
