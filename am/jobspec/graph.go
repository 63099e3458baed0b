package jobspec

import (
	"strconv"
	"strings"
)

// checkGraph checks what spans stages: names unique, and each after list
// naming other stages of the job, once each, without a cycle. The
// scheduler checks cycles again at submit; here they come with lines.
// afterLines[i][k] is the line of stages[i].after[k].
func (d *decoder) checkGraph(stages []Stage, afterLines [][]int) {
	if d.stopped {
		return
	}
	byName := make(map[string]int, len(stages))
	for i, s := range stages {
		if s.Name == "" { // reported already
			continue
		}
		if first, dup := byName[s.Name]; dup {
			d.errorf(s.Line, index("stages", i)+".name", "%q: stages[%d] has this name too", clip(s.Name), first)
			continue
		}
		byName[s.Name] = i
	}
	edgesOK := true
	for i, s := range stages {
		seen := make(map[string]bool, len(s.After))
		for k, dep := range s.After {
			path := index(index("stages", i)+".after", k)
			line := afterLines[i][k]
			_, exists := byName[dep]
			switch {
			case dep == s.Name:
				d.errorf(line, path, "%q: a stage cannot wait for itself", clip(dep))
			case !exists:
				d.errorf(line, path, "%q: no stage of this job has this name%s", clip(dep), didYouMeanStage(dep, byName))
			case seen[dep]:
				d.errorf(line, path, "%q: listed twice", clip(dep))
			default:
				seen[dep] = true
				continue
			}
			edgesOK = false
		}
	}
	if edgesOK {
		d.checkCycles(stages, byName, afterLines)
	}
}

func didYouMeanStage(name string, byName map[string]int) string {
	if len(byName) > 1000 { // a did-you-mean is not worth a scan per reference of a huge job
		return ""
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	if near := nearest(name, names); near != "" {
		return "; did you mean " + strconv.Quote(near) + "?"
	}
	return ""
}

// checkCycles reports the first cycle of after edges a depth-first walk
// finds, as the chain of stage names that closes it.
func (d *decoder) checkCycles(stages []Stage, byName map[string]int, afterLines [][]int) {
	const (
		unvisited = iota
		onPath
		done
	)
	state := make([]int, len(stages))
	var path []int // stages on the walk's current path
	var walk func(i int) bool
	walk = func(i int) bool {
		state[i] = onPath
		path = append(path, i)
		for k, dep := range stages[i].After {
			j := byName[dep]
			switch state[j] {
			case onPath:
				d.reportCycle(stages, path, j, index(index("stages", i)+".after", k), afterLines[i][k])
				return true
			case unvisited:
				if walk(j) {
					return true
				}
			}
		}
		path = path[:len(path)-1]
		state[i] = done
		return false
	}
	for i := range stages {
		if state[i] == unvisited && walk(i) {
			return
		}
	}
}

// reportCycle names the cycle the walk closed by coming back to stage j,
// on path, from the after entry field on line.
func (d *decoder) reportCycle(stages []Stage, path []int, j int, field string, line int) {
	start := 0
	for path[start] != j {
		start++
	}
	names := make([]string, 0, len(path)-start+1)
	for _, i := range path[start:] {
		names = append(names, strconv.Quote(clip(stages[i].Name)))
	}
	names = append(names, strconv.Quote(clip(stages[j].Name)))
	d.errorf(line, field, "a cycle: %s (each waits for the next)", strings.Join(names, " → "))
}
