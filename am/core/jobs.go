package core

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/scheduler"
)

// JobState is where a job is in its life, as `spindle jobs` shows it.
type JobState string

const (
	JobRunning   JobState = "RUNNING"
	JobSucceeded JobState = "SUCCEEDED"
	JobFailed    JobState = "FAILED"
	JobCancelled JobState = "CANCELLED"
)

// JobInfo is one job of the application, running or ended.
type JobInfo struct {
	ID    scheduler.JobID
	Name  string
	Pool  string
	State JobState
	// Tasks, Succeeded and Running count the job's tasks; FailedAttempts
	// its failed attempts so far.
	Tasks, Succeeded, Running, FailedAttempts int
	Submitted                                 time.Time
	// Duration is how long it has run so far, or ran.
	Duration time.Duration
	// Reason is why it failed or was cancelled.
	Reason string
	// Waiting, as Jobs lists a running job, says why its pending tasks
	// wait, stage by stage, in the scheduler's words.
	Waiting string
}

// JobHistory is how many ended jobs a session remembers for Jobs: the
// most recent ones. A session runs for days; its memory must not grow
// with every job it ever ran.
const JobHistory = 1000

// Jobs are the application's jobs in submission order: those running
// and the last JobHistory that ended.
func (c *Core) Jobs(now time.Time) []JobInfo {
	jobs, _ := c.jobsWaiting(now)
	return jobs
}

// jobsWaiting is Jobs, and why each running job's pending tasks wait,
// stage by stage: the scheduler is asked once a job (Status wants both).
func (c *Core) jobsWaiting(now time.Time) ([]JobInfo, map[scheduler.JobID][]WaitingStage) {
	out := append([]JobInfo(nil), c.history...)
	waiting := map[scheduler.JobID][]WaitingStage{}
	for _, id := range c.jobIDs() {
		info := c.running(now, c.jobs[id])
		var why []string
		for _, w := range c.sched.WhyPending(now, id) {
			if w.Reason == scheduler.ReasonGang {
				w.Message += c.gangAsked(w.Stage)
			}
			waiting[id] = append(waiting[id], WaitingStage{Stage: w.Name, Pending: w.Pending, Why: w.Message})
			why = append(why, fmt.Sprintf("%s: %d waiting: %s", w.Name, w.Pending, w.Message))
		}
		info.Waiting = strings.Join(why, "; ")
		out = append(out, info)
	}
	// The history is in the order jobs ended.
	sort.Slice(out, func(i, k int) bool { return out[i].ID < out[k].ID })
	return out, waiting
}

// Job is one job, running or among the JobHistory last ended.
func (c *Core) Job(now time.Time, id scheduler.JobID) (JobInfo, bool) {
	if j := c.jobs[id]; j != nil {
		return c.running(now, j), true
	}
	for _, h := range c.history {
		if h.ID == id {
			return h, true
		}
	}
	return JobInfo{}, false
}

// running is a running job's JobInfo.
func (c *Core) running(now time.Time, j *job) JobInfo {
	info := JobInfo{ID: j.id, Name: j.spec.Name, Pool: j.spec.Pool, State: JobRunning, Tasks: j.sum.Tasks,
		Submitted: j.sum.Started, Duration: now.Sub(j.sum.Started)}
	if p, ok := c.sched.JobProgress(j.id); ok {
		info.Succeeded, info.Running, info.FailedAttempts = p.Succeeded, p.Running, p.FailedAttempts
	}
	return info
}

// remember keeps an ended job's JobInfo, forgetting the oldest past
// JobHistory.
func (c *Core) remember(info JobInfo) {
	if len(c.history) == JobHistory {
		copy(c.history, c.history[1:])
		c.history = c.history[:JobHistory-1]
	}
	c.history = append(c.history, info)
}

// Cancel ends a running job unsuccessfully: its running tasks are killed,
// and it is reported finished, CANCELLED, once they have ended. A job
// that is not running is an error saying so.
func (c *Core) Cancel(now time.Time, id scheduler.JobID, reason string) error {
	j := c.jobs[id]
	if j == nil {
		if info, ok := c.Job(now, id); ok {
			return fmt.Errorf("job %d (%s) has already ended: %s", id, info.Name, info.State)
		}
		return fmt.Errorf("no job %d", id)
	}
	if !j.cancelled {
		j.cancelled = true
		c.notice(Notice{Job: j.spec.Name, Message: "job cancelled: " + reason})
	}
	c.sched.CancelJob(id, reason)
	return nil
}

// Stop ends a session: it takes no more jobs, cancels those running, and
// ends successfully once they have ended.
func (c *Core) Stop(now time.Time, reason string) {
	if c.stopping != "" || c.final != nil {
		return
	}
	c.stopping = reason
	c.notice(Notice{Message: "stopping: " + reason})
	ids := c.jobIDs()
	for _, id := range ids {
		c.Cancel(now, id, "the session stopped: "+reason)
	}
	if len(ids) == 0 {
		c.final = &Final{Succeeded: true, Diagnostics: "stopped: " + reason}
	}
}
