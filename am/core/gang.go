package core

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/executor/taskenv"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A gang stage's tasks launch in one batch of the scheduler's
// (scheduler/gang.go). Before they go out the core gives each its
// rendezvous variables (taskenv.Rendezvous) and asks rank 0's executor
// for MASTER_PORT, a port free on its host, which only that host can
// tell: the launches are held until it answers (PortPicked). An attempt
// the scheduler stops meanwhile (its gang restarts) never launched: the
// core reports its end itself instead of sending the kill.

// PortRequest asks an executor for a port free on its host (wire's
// PickPort); its answer comes back with PortPicked.
type PortRequest struct {
	Executor scheduler.ExecutorID
	Gang     int64
}

// gangHold is a gang's launches, in rank order, held for MASTER_PORT.
type gangHold struct {
	launches []TaskLaunch
	master   string               // rank 0's host
	asked    scheduler.ExecutorID // rank 0's executor, which answers
}

// gangState is the core's part in gangs: the holds by id, each held
// attempt's hold, and the attempts the core ended itself in this round,
// whose kills the scheduler may still send.
type gangState struct {
	holds      map[int64]*gangHold
	held       map[scheduler.AttemptID]int64
	unlaunched map[scheduler.AttemptID]bool
	next       int64
}

// gangMember is one launch of a gang, with its host.
type gangMember struct {
	launch TaskLaunch
	host   string
}

// holdGangs takes the gang launches out of batch, gives each its
// rendezvous variables and holds them, asking rank 0's executor for a
// port; it returns the launches to send now.
func (c *Core) holdGangs(batch []TaskLaunch, hosts map[scheduler.AttemptID]string, gang map[scheduler.AttemptID]bool) []TaskLaunch {
	kept := batch[:0]
	byStage := map[scheduler.StageID][]gangMember{}
	var order []scheduler.StageID
	for _, l := range batch {
		if !gang[l.Attempt] {
			kept = append(kept, l)
			continue
		}
		sid := l.Attempt.Task.Stage
		if byStage[sid] == nil {
			order = append(order, sid)
		}
		byStage[sid] = append(byStage[sid], gangMember{l, hosts[l.Attempt]})
	}
	for _, sid := range order {
		c.holdGang(byStage[sid])
	}
	return kept
}

// holdGang holds one gang's launches with their variables, but
// MASTER_PORT.
func (c *Core) holdGang(members []gangMember) {
	slices.SortFunc(members, func(a, b gangMember) int { return a.launch.Attempt.Task.Index - b.launch.Attempt.Task.Index })
	hosts := make([]string, len(members))
	onHost := map[string]int{}
	for i, m := range members {
		hosts[i] = m.host
		onHost[m.host]++
	}
	g := &c.gangs
	if g.holds == nil {
		g.holds, g.held = map[int64]*gangHold{}, map[scheduler.AttemptID]int64{}
	}
	g.next++
	h := &gangHold{master: hosts[0], asked: members[0].launch.Executor}
	localRank := map[string]int{}
	for _, m := range members {
		l := m.launch
		l.Env = append(slices.Clip(l.Env),
			EnvVar{taskenv.Rank, strconv.Itoa(l.Attempt.Task.Index)},
			EnvVar{taskenv.WorldSize, strconv.Itoa(l.TaskCount)},
			EnvVar{taskenv.LocalRank, strconv.Itoa(localRank[m.host])},
			EnvVar{taskenv.LocalWorldSize, strconv.Itoa(onHost[m.host])},
			EnvVar{taskenv.MasterAddr, h.master},
			EnvVar{taskenv.GangHosts, strings.Join(hosts, ",")})
		localRank[m.host]++
		h.launches = append(h.launches, l)
		g.held[l.Attempt] = g.next
	}
	g.holds[g.next] = h
	c.rd.PortRequests = append(c.rd.PortRequests, PortRequest{Executor: members[0].launch.Executor, Gang: g.next})
}

// PortPicked is executor id's answer for gang: the port, or why none
// (then the gang's rank 0 fails, and the gang runs again whole). An
// answer for a gang no longer held (restarted meanwhile), or from an
// executor not asked, is ignored.
func (c *Core) PortPicked(now time.Time, id scheduler.ExecutorID, gang int64, port int, failure string) {
	g := &c.gangs
	h := g.holds[gang]
	if h == nil || h.asked != id {
		return
	}
	delete(g.holds, gang)
	for _, l := range h.launches {
		delete(g.held, l.Attempt)
	}
	if failure != "" || port <= 0 || port > 65535 {
		why := fmt.Sprintf("no port free on %s for MASTER_PORT: %s", h.master, failure)
		if failure == "" {
			why = fmt.Sprintf("%s answered port %d for MASTER_PORT", h.master, port)
		}
		c.notice(Notice{Warning: true, Job: h.launches[0].Job, Stage: h.launches[0].Stage, Message: "gang not started: " + why})
		for i, l := range h.launches {
			r := scheduler.TaskResult{Outcome: scheduler.Killed, Reason: why, Blameless: true}
			if i == 0 {
				r = scheduler.TaskResult{Outcome: scheduler.Failed, Reason: why}
			}
			c.endUnlaunched(now, l.Executor, l.Attempt, r)
		}
		return
	}
	start := len(c.rd.Launches)
	for _, l := range h.launches {
		l.Env = append(l.Env, EnvVar{taskenv.MasterPort, strconv.Itoa(port)})
		c.rd.Launches = append(c.rd.Launches, l)
	}
	groupByExecutor(c.rd.Launches[start:])
}

// endUnlaunched reports the end of attempt a, held for executor id,
// that never left the core.
func (c *Core) endUnlaunched(now time.Time, id scheduler.ExecutorID, a scheduler.AttemptID, r scheduler.TaskResult) {
	g := &c.gangs
	if g.unlaunched == nil {
		g.unlaunched = map[scheduler.AttemptID]bool{}
	}
	g.unlaunched[a] = true
	if err := c.sched.TaskFinished(now, id, a, r); err == nil {
		if x := c.execs[id]; x != nil {
			c.usage.taskEnded(now, x)
		}
	}
}

// kills passes on the scheduler's kills but those of attempts never
// launched: a held one is taken out of its hold and its end reported
// here; true when it reported any (the scheduler has more to decide).
func (c *Core) kills(now time.Time, ks []scheduler.Kill) bool {
	g := &c.gangs
	ended := false
	for _, k := range ks {
		id, held := g.held[k.Attempt]
		switch {
		case held:
			delete(g.held, k.Attempt)
			h := g.holds[id]
			h.launches = slices.DeleteFunc(h.launches, func(l TaskLaunch) bool { return l.Attempt == k.Attempt })
			if len(h.launches) == 0 {
				delete(g.holds, id)
			}
			c.endUnlaunched(now, k.Executor, k.Attempt, scheduler.TaskResult{Outcome: scheduler.Killed, Reason: k.Reason})
			ended = true
		case g.unlaunched[k.Attempt]:
		default:
			c.rd.Kills = append(c.rd.Kills, k)
		}
	}
	return ended
}

// dropHeldOn forgets the held launches on an executor the scheduler is
// told is gone: it ends their attempts itself.
func (c *Core) dropHeldOn(id scheduler.ExecutorID) {
	g := &c.gangs
	for gid, h := range g.holds {
		h.launches = slices.DeleteFunc(h.launches, func(l TaskLaunch) bool {
			if l.Executor == id {
				delete(g.held, l.Attempt)
				return true
			}
			return false
		})
		if len(h.launches) == 0 {
			delete(g.holds, gid)
		}
	}
}

// groupByExecutor orders launches by executor, keeping the order
// executors first appear in and each one's launches in order: a batch
// per executor.
func groupByExecutor(batch []TaskLaunch) {
	firstSeen := map[scheduler.ExecutorID]int{}
	for i, l := range batch {
		if _, ok := firstSeen[l.Executor]; !ok {
			firstSeen[l.Executor] = i
		}
	}
	slices.SortStableFunc(batch, func(a, b TaskLaunch) int { return firstSeen[a.Executor] - firstSeen[b.Executor] })
}

// gangTimedOut carries out a gang's timeout: the notice, and, hard, its
// profile's idle executors let go (on YARN their containers go back, and
// its next try asks anew), so that no gang keeps what it holds past its
// timeout.
func (c *Core) gangTimedOut(t scheduler.GangTimeout) {
	n := Notice{Warning: true, Message: "gang timed out: " + t.Message}
	if st := c.stages[t.Stage]; st != nil {
		n.Job, n.Stage = st.job.spec.Name, st.spec.Name
	}
	c.notice(n)
	c.rd.GangTimeouts = append(c.rd.GangTimeouts, t)
	if t.Soft || c.yarn == nil {
		return // local mode's executors are fixed: none to give back
	}
	for _, e := range c.sched.Executors() {
		if x := c.execs[e.ID]; x != nil && e.Profile == t.Profile && e.Running == 0 {
			c.stop(x, fmt.Sprintf("released: held for a gang that timed out (try %d)", t.Try))
		}
	}
}

// raiseForGang sets the gang acquiring now's floor on its profile's
// containers: it needs them all at once.
func (c *Core) raiseForGang() {
	clear(c.yarn.gangFloor)
	if w, ok := c.sched.AcquiringGang(); ok {
		if c.yarn.gangFloor == nil {
			c.yarn.gangFloor = map[scheduler.ProfileID]int{}
		}
		c.yarn.gangFloor[w.Profile] = w.Executors
	}
}

// gangAsked says, on YARN, how many executors of a waiting gang's
// profile are asked for and not yet come: ", 1 executor asked".
func (c *Core) gangAsked(sid scheduler.StageID) string {
	st := c.stages[sid]
	if c.yarn == nil || st == nil {
		return ""
	}
	n := c.yarn.asks.outstanding(st.job.stageProfiles[st.index])
	if n == 1 {
		return ", 1 executor asked"
	}
	return fmt.Sprintf(", %d executors asked", n)
}

// gangsFit refuses, in local mode, a gang stage its fixed executors could
// never hold at once: it would wait for them forever.
func (c *Core) gangsFit(job string, spec scheduler.JobSpec) error {
	if c.yarn != nil || c.cfg.FixedExecutors <= 0 {
		return nil
	}
	for _, st := range spec.Stages {
		if !st.Gang {
			continue
		}
		for _, p := range c.cfg.Profiles {
			if p.ID != st.Profile {
				continue
			}
			if room := c.cfg.FixedExecutors * p.TasksPerExecutor(st.Request); st.Tasks > room {
				return fmt.Errorf("job %q stage %q: gang of %d tasks: local mode's %d executors (%d cores, %d GPUs each) hold %d of its tasks at once",
					job, st.Name, st.Tasks, c.cfg.FixedExecutors, p.Cores, p.GPUs, room)
			}
		}
	}
	return nil
}

// gangTasksDone counts the tasks of gangs whose whole run succeeded, and
// hands them to the caller to record as done.
func (c *Core) gangTasksDone(done []scheduler.TaskID) {
	for _, id := range done {
		if st := c.stages[id.Stage]; st != nil {
			st.job.succeeded++
			c.rd.GangTasksDone = append(c.rd.GangTasksDone, JobTask{Job: st.job.id, TaskRef: TaskRef{StageIndex: st.index, Index: id.Index}})
		}
	}
}
