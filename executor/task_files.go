package executor

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/executor/tasklog"
)

// taskFiles keeps account of an executor's task files, job by job, and
// removes ended jobs' files by its session's policy (tasklog.Retention):
// the oldest ended job's first, and never a running job's. The driver
// says which jobs ended (wire.JobsEnded), in a session only; a job with
// an attempt still here counts as ended once that attempt has. Files are
// removed by a goroutine of their own (run), so that neither the
// executor's loop nor a task waits on the disk. Memory: a bit per task
// of the jobs whose files are here (attemptSet).
type taskFiles struct {
	dir string
	log logrus.FieldLogger

	mu   sync.Mutex
	jobs map[int64]*jobFiles // with files here, not ended (or an attempt still running)
	// ended are the ended jobs whose files are kept, by the policy in
	// retention; doomed those whose files are to go, in order.
	ended     map[int64]*jobFiles
	retention *tasklog.Retention
	doomed    []*jobFiles
	wake      chan struct{} // one slot: doomed has some
}

// jobFiles is one job's attempts with files here.
type jobFiles struct {
	id       int64
	attempts attemptSet
	bytes    int64
	running  int  // attempts started, not yet finished
	ended    bool // the driver said so
}

// attemptSuffixes are an attempt's files; an output file rolled over
// (NAME.1) is gone when the task ends, unless writing it failed.
var attemptSuffixes = []string{tasklog.Stdout, tasklog.Stderr, tasklog.Resources, tasklog.Preempted, tasklog.Stdout + ".1", tasklog.Stderr + ".1"}

func newTaskFiles(dir string, p tasklog.Policy, log logrus.FieldLogger) *taskFiles {
	return &taskFiles{dir: dir, log: log, jobs: map[int64]*jobFiles{}, ended: map[int64]*jobFiles{},
		retention: tasklog.NewRetention(p), wake: make(chan struct{}, 1)}
}

func (f *taskFiles) paths(job int64, a attemptFiles) []string {
	name := filepath.Join(f.dir, tasklog.Name(job, int(a.stage), int(a.task), int(a.attempt)))
	out := make([]string, len(attemptSuffixes))
	for i, s := range attemptSuffixes {
		out[i] = name + s
	}
	return out
}

// started notes an attempt about to write its files.
func (f *taskFiles) started(job int64, a attemptFiles) {
	f.mu.Lock()
	defer f.mu.Unlock()
	j := f.jobs[job]
	if j == nil {
		j = &jobFiles{id: job}
		f.jobs[job] = j
	}
	j.running++
	j.attempts.add(a)
}

// finished counts an ended attempt's files (or one that never started:
// what it wrote); call it before reporting the attempt's end, so that
// the job's end finds them counted.
func (f *taskFiles) finished(job int64, a attemptFiles) {
	var bytes int64
	for _, p := range f.paths(job, a) {
		if st, err := os.Stat(p); err == nil {
			bytes += st.Size()
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	j := f.jobs[job]
	if j == nil {
		return // never started
	}
	j.bytes += bytes
	j.running--
	if j.ended && j.running == 0 {
		f.retire(j)
	}
}

// jobsEnded is the driver's word that jobs ended.
func (f *taskFiles) jobsEnded(ids []int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, id := range ids {
		j := f.jobs[id]
		if j == nil {
			continue // no files here, or retired already
		}
		j.ended = true
		if j.running == 0 {
			f.retire(j)
		}
	}
}

// retire hands an ended job, its attempts all ended, to the policy, and
// dooms the files it says go. Called with mu held.
func (f *taskFiles) retire(j *jobFiles) {
	delete(f.jobs, j.id)
	f.ended[j.id] = j
	remove := f.retention.Ended(j.id, j.bytes)
	for _, id := range remove {
		f.doomed = append(f.doomed, f.ended[id])
		delete(f.ended, id)
	}
	if len(remove) > 0 {
		select {
		case f.wake <- struct{}{}:
		default: // already woken
		}
	}
}

// run removes doomed files until stop is closed, then what is left
// doomed, and returns.
func (f *taskFiles) run(stop <-chan struct{}) {
	for {
		select {
		case <-f.wake:
			f.removeDoomed()
		case <-stop:
			f.removeDoomed()
			return
		}
	}
}

func (f *taskFiles) removeDoomed() {
	f.mu.Lock()
	doomed := f.doomed
	f.doomed = nil
	f.mu.Unlock()
	for _, j := range doomed {
		removed, failed := 0, 0
		var firstErr error
		j.attempts.each(func(a attemptFiles) {
			for _, p := range f.paths(j.id, a) {
				switch err := os.Remove(p); {
				case err == nil:
					removed++
				case errors.Is(err, fs.ErrNotExist):
				default:
					failed++
					if firstErr == nil {
						firstErr = err
					}
				}
			}
		})
		log := f.log.WithFields(logrus.Fields{"job": j.id, "files": removed, "bytes": j.bytes})
		if failed > 0 {
			log.WithError(firstErr).WithField("failed", failed).Warn("removing an ended job's task files")
			continue
		}
		log.Debug("removed an ended job's task files (spindle.session.taskLogs)")
	}
}
