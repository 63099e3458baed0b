package webui

import (
	"net/http"

	"github.com/spindle-yarn/spindle/am/history"
)

// withGang adds st's gang, if it is one: its ranks and runs from the
// history, and while the application runs what it waits for, in the
// scheduler's words.
func (u *ui) withGang(r *http.Request, st Stage) Stage {
	g, ok := u.o.Store.Gang(u.o.Now(), st.ID)
	if !ok {
		return st
	}
	for _, w := range waiting(u.live(r))[st.Job] {
		if w.Stage == st.Name {
			g.Waiting = w.Why
		}
	}
	st.GangRuns = &g
	return st
}

// gangSection is what the stage page's gang section takes: the gang,
// and each restart's rank's output where the UI can link it.
type gangSection struct {
	*history.GangView
	Ended    *restartRow
	Restarts []restartRow
}

// restartRow is a restart, its number from 0, with its rank's stdout
// and stderr ("" for none to link).
type restartRow struct {
	history.GangRestart
	N              int
	Stdout, Stderr string
}

// gangSection is g as the stage page shows it.
func (u *ui) gangSection(g *history.GangView) *gangSection {
	row := func(r history.GangRestart) restartRow {
		out := restartRow{GangRestart: r}
		switch {
		case r.Executor == "" || r.File == "":
		case r.LogURL != "":
			out.Stdout, out.Stderr = r.LogURL+"/"+r.File+".stdout", r.LogURL+"/"+r.File+".stderr"
		case u.o.TaskFiles != "":
			out.Stdout, out.Stderr = u.o.Base+"/logs/"+r.Executor+"/"+r.File+".stdout", u.o.Base+"/logs/"+r.Executor+"/"+r.File+".stderr"
		}
		return out
	}
	s := &gangSection{GangView: g}
	if g.Ended != nil {
		e := row(*g.Ended)
		s.Ended = &e
	}
	for i, r := range g.Restarts {
		s.Restarts = append(s.Restarts, row(r))
		s.Restarts[i].N = g.RestartCount - len(g.Restarts) + i
	}
	return s
}
