// Command testlanes runs test suites side by side, each a lane of its own,
// and says where the time went. The mini clusters' tests mostly wait on
// heartbeats, so suites that start clusters of their own can share a
// machine's cores; make test runs its integration suites this way.
//
//	testlanes -dir DIR -out DIR [-slowest N] [-mark TEXT] -lane 'NAME=COMMAND'...
//
// Each lane's COMMAND runs under bash in -dir, all lanes at once, and
// must write `go test -json` events to its stdout (several go test
// commands one after another may share a lane). As each top-level test
// ends, one line says so; a failed test's whole output follows at the end.
// Then come each lane's wall time and counts, the -slowest tests of all
// lanes, and every output line containing -mark (the mini cluster's
// starts: integration/testcluster.StartedPrefix). Each lane's events and
// stderr are kept in -out. It exits 1 when a test or a lane's command
// failed, or a lane ran no test at all (a pattern that matches nothing
// must not pass for a green run).
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// lanes is the repeatable -lane flag.
type lanes []Lane

func (l *lanes) String() string { return fmt.Sprint(*l) }

func (l *lanes) Set(v string) error {
	name, cmd, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(cmd) == "" {
		return fmt.Errorf("%q: want NAME=COMMAND", v)
	}
	*l = append(*l, Lane{Name: strings.TrimSpace(name), Command: cmd})
	return nil
}

func main() {
	var ls lanes
	dir := flag.String("dir", ".", "where the lanes' commands run")
	out := flag.String("out", "build/test-lanes", "where each lane's events and stderr are kept")
	slowest := flag.Int("slowest", 10, "how many of the slowest tests the summary lists")
	mark := flag.String("mark", "", "output lines containing this are listed in the summary")
	flag.Var(&ls, "lane", "NAME=COMMAND: a lane (repeatable)")
	flag.Parse()
	if len(ls) == 0 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: testlanes -dir DIR -out DIR [-slowest N] [-mark TEXT] -lane 'NAME=COMMAND'...")
		os.Exit(2)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "testlanes:", err)
		os.Exit(2)
	}
	results := Run(ls, *dir, *out, os.Stdout, *mark)
	if !Summarize(os.Stdout, results, *slowest, *mark) {
		os.Exit(1)
	}
}
