package history

import "time"

// timeline samples executors held and busy and tasks waiting per pool,
// at most once a step; once it holds max points it keeps every other one
// and doubles its step, so a long session's chart costs what a short
// one's does.
type timeline struct {
	points []Point
	max    int
	step   time.Duration
}

func (tl *timeline) sample(now time.Time, s *Store) {
	if n := len(tl.points); n > 0 && now.Sub(tl.points[n-1].Time) < tl.step {
		return
	}
	if len(tl.points) == tl.max {
		kept := tl.points[:0]
		for i := 0; i < len(tl.points); i += 2 {
			kept = append(kept, tl.points[i])
		}
		tl.points, tl.step = kept, 2*tl.step
	}
	tl.points = append(tl.points, s.point(now))
}

// point is the timeline's point now.
func (s *Store) point(now time.Time) Point {
	p := Point{Time: now, Held: s.live}
	for _, x := range s.execOrder {
		if x.gone == nil && x.running > 0 {
			p.Busy++
		}
	}
	for _, j := range s.jobOrder {
		if j.state != JobRunning {
			continue
		}
		if w := j.counts().Waiting; w > 0 {
			if p.Waiting == nil {
				p.Waiting = map[string]int{}
			}
			p.Waiting[j.Pool] += w
		}
	}
	return p
}
