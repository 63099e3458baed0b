package faultsim

import (
	"fmt"
	"strings"
)

// historyLines is how much of the history a report shows: the lines up
// to the violation.
const historyLines = 60

// Report explains a schedule's run that broke an invariant: the
// invariant and what broke it, how to replay it, the schedule as text
// (a test replays it from a file, and lines may be taken out), and the
// history up to the violation, from running it again traced.
func Report(s *Schedule, opts Options) string {
	opts.Trace = true
	res := Run(s, opts)
	var b strings.Builder
	if res.Broken == nil {
		fmt.Fprintf(&b, "seed %d broke no invariant\n", s.Seed)
		return b.String()
	}
	v := res.Broken
	fmt.Fprintf(&b, "seed %d broke %q at %v:\n  %s\n", s.Seed, v.Invariant, v.At, v.What)
	fmt.Fprintf(&b, "replay it: go test ./am/faultsim -run 'TestFaultSim$' -seed %d\n", s.Seed)
	b.WriteString("or save the schedule below as a file and replay that (-schedule FILE; a test replays am/faultsim/testdata/*.sched),\n")
	b.WriteString("taking out the lines that do not matter:\n\n")
	b.WriteString(s.String())
	trace := res.Trace
	fmt.Fprintf(&b, "\nthe history up to it (the last %d of %d lines):\n", min(historyLines, len(trace)), len(trace))
	if len(trace) > historyLines {
		trace = trace[len(trace)-historyLines:]
	}
	for _, line := range trace {
		b.WriteString(line + "\n")
	}
	return b.String()
}
