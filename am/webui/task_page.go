package webui

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/spindle-yarn/spindle/am/history"
)

// A task's own page lists every attempt of it kept (history's
// Limits.RetainedAttempts), each with where it ran, how it ended and
// its output: the first failure's output, usually the one that
// matters, stays reachable once the task ran again.

// task is the task the request's {id} and {index} name, or an error
// written.
func (u *ui) task(w http.ResponseWriter, r *http.Request) (history.TaskAttempts, bool) {
	id, ok := pathID(w, r)
	if !ok {
		return history.TaskAttempts{}, false
	}
	index, err := strconv.Atoi(r.PathValue("index"))
	if err != nil {
		http.Error(w, fmt.Sprintf("%q is not a task's index", r.PathValue("index")), http.StatusBadRequest)
		return history.TaskAttempts{}, false
	}
	t, ok := u.o.Store.Task(u.o.Now(), id, index)
	if !ok {
		http.Error(w, fmt.Sprintf("no task %d of stage %d listed (spindle.ui.retainedTasks lists a stage's first tasks)", index, id), http.StatusNotFound)
	}
	return t, ok
}

type taskBody struct {
	history.TaskAttempts
	// LocalFiles says the UI serves task files (Options.TaskFiles).
	LocalFiles bool
}

func (u *ui) taskPage(w http.ResponseWriter, r *http.Request) {
	if t, ok := u.task(w, r); ok {
		u.render(w, "task", fmt.Sprintf("Task %d of stage %d: %s", t.Index, t.Stage, t.StageName), taskBody{TaskAttempts: t, LocalFiles: u.o.TaskFiles != ""})
	}
}
