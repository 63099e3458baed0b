package faultsim

import (
	"flag"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	seedFlag     = flag.Uint64("seed", 0, "run this seed alone, printing its schedule and history")
	seedsFlag    = flag.Int("seeds", 0, "how many seeds TestFaultSim runs (default 10,000; 2,000 under -race)")
	firstFlag    = flag.String("first", "1", "the first seed TestFaultSim runs, or random")
	scheduleFlag = flag.String("schedule", "", "replay the schedule in this file (as a failing seed prints it)")
	cutsFlag     = flag.Bool("cuts", false, "draw connection cuts too, left out of the default mix to keep its seeds (docs/reliability.md)")
	continueFlag = flag.Bool("continue", false, "replaying, run on past the first invariant broken, to see which others break")
)

// seeds is how many schedules TestFaultSim runs by default: 10,000 in
// under 10 seconds on 2 cores (make faultsim); the race detector makes
// each about six times slower, so make test-unit's -race run takes
// 2,000.
func seeds() int {
	switch {
	case *seedsFlag > 0:
		return *seedsFlag
	case raceDetector:
		return 2000
	}
	return 10_000
}

func firstSeed(t *testing.T) uint64 {
	if *firstFlag == "random" {
		first := uint64(time.Now().UnixNano())
		t.Logf("seeds from %d (-first random)", first)
		return first
	}
	first, err := strconv.ParseUint(*firstFlag, 10, 64)
	if err != nil {
		t.Fatalf("-first %q: want a number or random", *firstFlag)
	}
	return first
}

// TestFaultSim runs seeded schedules of AM crashes (at any time, and at
// any store operation: before it, mid-write, after it), RM restarts,
// executor and node losses and store outages against the AM's own core,
// journal and restart path, checking every invariant over each run's
// history. A failing seed prints its schedule and history; -seed N
// replays one, -schedule FILE a schedule, -seeds and -first run others.
func TestFaultSim(t *testing.T) {
	switch {
	case *scheduleFlag != "":
		data, err := os.ReadFile(*scheduleFlag)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(string(data))
		if err != nil {
			t.Fatal(err)
		}
		replay(t, s)
		return
	case *seedFlag != 0:
		replay(t, Draw(*seedFlag, Mix{Cuts: *cutsFlag}))
		return
	}
	first, n := firstSeed(t), seeds()
	start := time.Now()
	failed, counts := runSeeds(first, n, Mix{Cuts: *cutsFlag})
	t.Logf("%d schedules (seeds %d to %d) in %v", n, first, first+uint64(n)-1, time.Since(start).Round(time.Millisecond))
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		t.Logf("%9d %s", counts[k], k)
	}
	for i, seed := range failed {
		if i == 3 {
			t.Errorf("... and %d more failing seeds", len(failed)-3)
			break
		}
		report := Report(Draw(seed, Mix{Cuts: *cutsFlag}), Options{})
		if *cutsFlag {
			report += "(drawn with -cuts: replay it with -cuts too)\n"
		}
		t.Error(report)
	}
}

// runSeeds runs n seeds from first on every core, returning the failing
// ones in order and what the runs exercised.
func runSeeds(first uint64, n int, mix Mix) ([]uint64, map[string]int) {
	var (
		mu     sync.Mutex
		failed []uint64
		counts = map[string]int{}
		next   = make(chan uint64)
		wg     sync.WaitGroup
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			local := map[string]int{}
			for seed := range next {
				res := Run(Draw(seed, mix), Options{})
				for k, v := range res.Counts {
					local[k] += v
				}
				local["AM attempts"] += res.Attempts
				if res.Broken != nil {
					mu.Lock()
					failed = append(failed, seed)
					mu.Unlock()
				}
			}
			mu.Lock()
			for k, v := range local {
				counts[k] += v
			}
			mu.Unlock()
		})
	}
	for i := range uint64(n) {
		next <- first + i
	}
	close(next)
	wg.Wait()
	slices.Sort(failed)
	return failed, counts
}

// replay runs one schedule traced, printing it and its history; with
// -continue, past its first violation.
func replay(t *testing.T, s *Schedule) {
	res := Run(s, Options{Trace: true, Continue: *continueFlag})
	t.Logf("schedule:\n%s\nhistory:\n%s", s, strings.Join(res.Trace, "\n"))
	for _, v := range res.Violations {
		t.Errorf("seed %d broke %q at %v: %s", s.Seed, v.Invariant, v.At, v.What)
	}
}

// TestFaultSimSchedules replays the schedules in testdata: each says on
// a "# breaks:" line the invariant it breaks, or none; those that break
// one show what the fault simulator does not (yet) hold.
func TestFaultSimSchedules(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.sched")
	if len(files) == 0 {
		t.Fatal("no schedules in testdata")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(strings.TrimPrefix(file, "testdata/"), ".sched"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Parse(string(data))
			if err != nil {
				t.Fatal(err)
			}
			want := "none"
			for _, line := range strings.Split(string(data), "\n") {
				if b, ok := strings.CutPrefix(line, "# breaks: "); ok {
					want = strings.TrimSpace(b)
				}
			}
			res := Run(s, Options{})
			got := "none"
			if res.Broken != nil {
				got = res.Broken.Invariant
			}
			if got != want {
				t.Errorf("broke %s; want %s\n%s", got, want, Report(s, Options{}))
			}
		})
	}
}

// A seed's schedule and run are the same every time: the history to
// the byte. The simulator reads no clock and starts no goroutine, and
// iterates no map where the order matters.
func TestFaultSimIsDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		a, b := Run(Draw(seed, Mix{Cuts: true}), Options{Trace: true}), Run(Draw(seed, Mix{Cuts: true}), Options{Trace: true})
		if !slices.Equal(a.Trace, b.Trace) {
			t.Fatalf("seed %d ran two ways:\n%s\n----\n%s", seed, strings.Join(a.Trace, "\n"), strings.Join(b.Trace, "\n"))
		}
		if len(a.Trace) < 10 {
			t.Fatalf("seed %d: a history of %d lines", seed, len(a.Trace))
		}
	}
}

// A schedule's text reads back as the same schedule, so that a failing
// seed's printed schedule replays it.
func TestScheduleTextReadsBack(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		s := Draw(seed, Mix{Cuts: true})
		back, err := Parse(s.String())
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, s)
		}
		if back.String() != s.String() {
			t.Fatalf("seed %d reads back otherwise:\n%s\n----\n%s", seed, s, back)
		}
		if a, b := Run(s, Options{Trace: true}), Run(back, Options{Trace: true}); !slices.Equal(a.Trace, b.Trace) {
			t.Fatalf("seed %d: its schedule read back runs otherwise", seed)
		}
	}
	for _, bad := range []string{"world nodes=0 executors=1", "seed 1\nworld nodes=2 executors=2\nfault meteor at=1s", "seed x", "world nodes=2 executors=2 rejoin=soon"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q read", bad)
		}
	}
}

// A failing run's report names the seed, the invariant, how to replay
// it and the schedule, and shows the history up to the violation.
func TestAFailingSeedPrintsAReplayableSchedule(t *testing.T) {
	read := func(file string) *Schedule {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(string(data))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if out := Report(read("testdata/onejob-started-over.sched"), Options{}); !strings.Contains(out, "seed 453 broke no invariant") {
		t.Errorf("a fine run's report:\n%s", out)
	}
	// Its clients not done by a horizon cut short, a run breaks the
	// liveness invariant.
	out := Report(read("testdata/cut-connection.sched"), Options{Horizon: 20 * time.Second})
	for _, want := range []string{`seed 105 broke "every client's job ends, or is said lost" at 20s`, "-seed 105", "fault cut at=8.89s pick=0\n",
		"the history up to it", "FAULT cut", "BROKEN: every client's job ends"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report says nothing of %q:\n%s", want, out)
		}
	}
}
