package faultsim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// String is the schedule as text that Parse reads back:
//
//	seed 42
//	world journal=on onejob=off nodes=3 executors=4 rejoin=1m0s adopt=30s
//	client 0 job at=12.5s tasks=6 long failing=2:1,4:3
//	fault crash at=1m3.25s
//	fault crash attempt=2 op=3 phase=torn
//	fault rm-restart at=40s
//	fault executor-loss at=25s pick=1
//	fault node-loss at=30s node=2
//	fault store-outage at=10s until=18s ops=list,read,write
//	fault cut at=20s pick=0
//
// A failing seed prints it; a test replays it (TestFaultSimReplay, or
// -schedule FILE), and lines may be taken out to find the faults that
// matter.
func (s *Schedule) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d\n", s.Seed)
	fmt.Fprintf(&b, "world journal=%s onejob=%s nodes=%d executors=%d rejoin=%v adopt=%v\n", onOff(s.Journal), onOff(s.OneJob), s.Nodes, s.Executors, s.Rejoin, s.Adopt)
	for i, c := range s.Clients {
		for _, j := range c.Jobs {
			fmt.Fprintf(&b, "client %d job at=%v tasks=%d", i, j.At, j.Tasks)
			if j.Long {
				b.WriteString(" long")
			}
			if len(j.Failing) > 0 {
				var fs []string
				for _, f := range j.Failing {
					fs = append(fs, fmt.Sprintf("%d:%d", f.Index, f.Runs))
				}
				fmt.Fprintf(&b, " failing=%s", strings.Join(fs, ","))
			}
			b.WriteString("\n")
		}
	}
	for _, f := range s.Faults {
		b.WriteString("fault " + f.String() + "\n")
	}
	return b.String()
}

// String is a fault as a schedule's line has it, after "fault ".
func (f Fault) String() string {
	switch {
	case f.Kind == Crash && f.Op > 0:
		return fmt.Sprintf("crash attempt=%d op=%d phase=%s", f.Attempt, f.Op, f.Phase)
	case f.Kind == ExecutorLoss || f.Kind == Cut:
		return fmt.Sprintf("%s at=%v pick=%d", f.Kind, f.At, f.Pick)
	case f.Kind == NodeLoss:
		return fmt.Sprintf("%s at=%v node=%d", f.Kind, f.At, f.Node)
	case f.Kind == StoreOutage:
		return fmt.Sprintf("%s at=%v until=%v ops=%s", f.Kind, f.At, f.Until, strings.Join(f.Ops, ","))
	}
	return fmt.Sprintf("%s at=%v", f.Kind, f.At)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// Parse reads a schedule String wrote (blank lines and lines starting
// with # are passed over).
func Parse(text string) (*Schedule, error) {
	s := &Schedule{}
	for n, line := range strings.Split(text, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if err := s.parseLine(fields); err != nil {
			return nil, fmt.Errorf("schedule line %d: %q: %w", n+1, strings.TrimSpace(line), err)
		}
	}
	if s.Nodes < 1 || s.Executors < 1 {
		return nil, fmt.Errorf("schedule: no world line (nodes and executors)")
	}
	return s, nil
}

func (s *Schedule) parseLine(fields []string) error {
	switch {
	case fields[0] == "seed" && len(fields) == 2:
		var err error
		s.Seed, err = strconv.ParseUint(fields[1], 10, 64)
		return err
	case fields[0] == "world":
		kv, err := keyValues(fields[1:])
		if err != nil {
			return err
		}
		s.Journal, s.OneJob = kv.str("journal") == "on", kv.str("onejob") == "on"
		s.Nodes, s.Executors = kv.int("nodes"), kv.int("executors")
		s.Rejoin, s.Adopt = kv.dur("rejoin"), kv.dur("adopt")
		if kv.err == nil && (s.Nodes < 1 || s.Nodes > 10 || s.Executors < 1 || s.Executors > 2*s.Nodes) {
			return fmt.Errorf("nodes %d, executors %d: want 1 to 10 nodes, and at most two executors a node", s.Nodes, s.Executors)
		}
		return kv.err
	case fields[0] == "client" && len(fields) > 2 && fields[2] == "job":
		words := fields[3:]
		long := slices.Contains(words, "long")
		words = slices.DeleteFunc(words, func(w string) bool { return w == "long" })
		kv, err := keyValues(words)
		if err != nil {
			return err
		}
		return s.parseJob(fields[1], kv, long)
	case fields[0] == "fault" && len(fields) > 1:
		return s.parseFault(FaultKind(fields[1]), fields[2:])
	}
	return fmt.Errorf("want seed, world, client N job or fault")
}

func (s *Schedule) parseFault(kind FaultKind, words []string) error {
	kv, err := keyValues(words)
	if err != nil {
		return err
	}
	switch kind {
	case Crash, RMRestart, ExecutorLoss, NodeLoss, StoreOutage, Cut:
	default:
		return fmt.Errorf("fault %q: want crash, rm-restart, executor-loss, node-loss, store-outage or cut", kind)
	}
	f := Fault{Kind: kind, At: kv.dur("at"), Attempt: kv.int("attempt"), Op: kv.int("op"), Phase: Phase(kv.str("phase")),
		Pick: kv.int("pick"), Node: kv.int("node"), Until: kv.dur("until")}
	if ops := kv.str("ops"); ops != "" {
		f.Ops = strings.Split(ops, ",")
	}
	s.Faults = append(s.Faults, f)
	return kv.err
}

func (s *Schedule) parseJob(client string, kv *keyValue, long bool) error {
	i, err := strconv.Atoi(client)
	if err != nil || i < 0 || i > 100 {
		return fmt.Errorf("client %q", client)
	}
	for len(s.Clients) <= i {
		s.Clients = append(s.Clients, ClientPlan{})
	}
	j := JobPlan{At: kv.dur("at"), Tasks: kv.int("tasks"), Long: long}
	if f := kv.str("failing"); f != "" {
		for _, t := range strings.Split(f, ",") {
			var tf TaskFailing
			if _, err := fmt.Sscanf(t, "%d:%d", &tf.Index, &tf.Runs); err != nil {
				return fmt.Errorf("failing %q: want index:runs", t)
			}
			j.Failing = append(j.Failing, tf)
		}
	}
	s.Clients[i].Jobs = append(s.Clients[i].Jobs, j)
	return kv.err
}

// keyValue reads a line's key=value words, keeping the first error.
type keyValue struct {
	m   map[string]string
	err error
}

func keyValues(words []string) (*keyValue, error) {
	kv := &keyValue{m: map[string]string{}}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return nil, fmt.Errorf("%q: want key=value", w)
		}
		kv.m[k] = v
	}
	return kv, nil
}

func (kv *keyValue) str(k string) string { return kv.m[k] }

func (kv *keyValue) int(k string) int {
	v, ok := kv.m[k]
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil && kv.err == nil {
		kv.err = fmt.Errorf("%s=%q: %v", k, v, err)
	}
	return n
}

func (kv *keyValue) dur(k string) time.Duration {
	v, ok := kv.m[k]
	if !ok {
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil && kv.err == nil {
		kv.err = fmt.Errorf("%s=%q: %v", k, v, err)
	}
	return d
}
