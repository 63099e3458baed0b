package staging

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"time"

	"github.com/spindle-yarn/spindle/am/history"
)

// EventLogs is a directory of applications' event logs, one directory
// each named by its application's id (spindle.eventLog.dir): what
// `spindle history` lists, and what drivers and `spindle history` clean
// (history.Retention: Spindle has no history server to do it).
type EventLogs struct {
	s    *Stager
	root string
}

// EventLogs is the directory of event logs root, an absolute clean path.
func (s *Stager) EventLogs(root string) (*EventLogs, error) {
	if err := checkDir(root); err != nil {
		return nil, err
	}
	return &EventLogs{s: s, root: root}, nil
}

// appIDRE is what an application's directory is called: a YARN
// application's id or a local one's. Nothing else under the root is
// listed, or removed.
var appIDRE = regexp.MustCompile(`^(application_\d+_\d+|local-\d+-[0-9a-f]+)$`)

// LoggedApp is an application's event log as a list shows it.
type LoggedApp struct {
	ID      string
	Summary history.AppSummary
	// Err says the log does not read (or not yet: a driver that has
	// written nothing): it is listed with its error and never removed.
	Err error
	// LastWrite is when its newest segment was written.
	LastWrite time.Time
	// Dead says its log has no end and its driver is known to be gone
	// (Clean sets it): it died before it could log one.
	Dead bool
}

// Survey summarizes each application's log in the directory, by id
// (history.Summarize: a log's first and last segments alone).
func (e *EventLogs) Survey(ctx context.Context) ([]LoggedApp, error) {
	infos, err := e.s.fs.readDir(e.root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s%s: %w", e.s.origin, e.root, err)
	}
	var out []LoggedApp
	for _, fi := range infos {
		if !fi.IsDir() || !appIDRE.MatchString(fi.Name()) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
		out = append(out, e.survey(ctx, fi.Name()))
	}
	slices.SortFunc(out, func(a, b LoggedApp) int { return a.Summary.Started.Compare(b.Summary.Started) })
	return out, nil
}

func (e *EventLogs) survey(ctx context.Context, id string) LoggedApp {
	a := LoggedApp{ID: id}
	seg := &Segments{s: e.s, dir: path.Join(e.root, id)}
	if a.Summary, a.Err = history.Summarize(ctx, seg); a.Err != nil {
		return a
	}
	if a.Summary.ID != id {
		a.Err = fmt.Errorf("the event log in %s is application %s's", seg.dir, a.Summary.ID)
		return a
	}
	names, err := seg.List(ctx)
	if err == nil && len(names) > 0 {
		slices.Sort(names)
		a.LastWrite, err = seg.Modified(names[len(names)-1])
	}
	a.Err = err
	return a
}

// Clean removes the logs that r says have had their time (the oldest
// ended first) and returns the others, and what it removed. An application whose log
// holds no end is taken as ended when its newest segment was written
// if running says it is not running; one running says may be, is never
// removed, nor a log that does not read. A log it fails to remove is
// left, with an error, for the next cleaner.
func (e *EventLogs) Clean(ctx context.Context, apps []LoggedApp, r history.Retention, now time.Time, running func(id string) bool) (kept []LoggedApp, removed []string, err error) {
	var logged []history.LoggedApp
	for i, a := range apps {
		switch {
		case a.Err != nil:
		case a.Summary.State != history.JobRunning:
			logged = append(logged, history.LoggedApp{ID: a.ID, Ended: a.Summary.Ended})
		case !a.LastWrite.IsZero() && !running(a.ID):
			apps[i].Dead = true
			logged = append(logged, history.LoggedApp{ID: a.ID, Ended: a.LastWrite})
		}
	}
	var errs []error
	for _, id := range r.Expired(logged, now) {
		if err := ctx.Err(); err != nil {
			errs = append(errs, err)
			break
		}
		if err := e.s.fs.removeAll(path.Join(e.root, id)); err != nil {
			errs = append(errs, fmt.Errorf("removing %s's event log: %w", id, err))
			continue
		}
		removed = append(removed, id)
	}
	for _, a := range apps {
		if !slices.Contains(removed, a.ID) {
			kept = append(kept, a)
		}
	}
	return kept, removed, errors.Join(errs...)
}

// Tidy surveys the directory and cleans it (Survey, then Clean), as a
// driver does when it starts and spindle history when it lists.
func (e *EventLogs) Tidy(ctx context.Context, r history.Retention, now time.Time, running func(id string) bool) (kept []LoggedApp, removed []string, err error) {
	apps, err := e.Survey(ctx)
	if err != nil {
		return apps, nil, err
	}
	return e.Clean(ctx, apps, r, now, running)
}
