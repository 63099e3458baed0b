// Command mutate runs a hand-written mutation pass: each mutant changes
// one piece of code (a comparison flipped, a condition dropped), the
// tests that should hold that rule run, and the code is put back. A
// mutant the tests still pass with is a rule no test holds.
//
//	go -C tools run ./mutate -root $(CURDIR) MUTANTS
//
// MUTANTS lists the mutants, each a block of lines:
//
//	mutant am/core/asks.go        # the file, from -root
//	- if live >= wanted {         # the text to change: it must occur once
//	+ if live > wanted {          # what it becomes ("+" alone: removed)
//	test -run TestAsks ./am/core/ # go test's arguments (default: the file's package)
//
// A line is the mutant's text as it stands in the file, leading and
// trailing space aside; test's arguments are split at spaces, unquoted.
// Blank lines and lines starting with "#" are skipped.
//
// A mutant's tests run in the module that holds its file (tools/ is a
// module of its own); test's arguments that name a directory are, like
// the file, from -root: "test ./tools/funclen/" runs go test ./funclen in
// tools.
// Only a test that ran and failed kills a mutant. One that does not
// compile, or whose tests never ran (no such package, a flag refused, a
// test binary dead before its first test), kills nothing: it is reported
// apart, most likely a mistake in the list. It prints each mutant's fate
// and the ratio killed, and exits 1 when one survived or one did not run.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	root := flag.String("root", ".", "the repository: mutants' files and tests' paths are from here")
	timeout := flag.Duration("timeout", 0, "go test's -timeout for each mutant (0: go test's default)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: mutate [-root DIR] [-timeout D] MUTANTS")
		os.Exit(2)
	}
	mutants, err := readMutants(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(2)
	}
	// An interrupt reaches go test too; this process lives on to put the
	// mutated file back, then stops.
	interrupted := make(chan os.Signal, 1)
	signal.Notify(interrupted, os.Interrupt, syscall.SIGTERM)
	stop := func() bool { return len(interrupted) > 0 }
	t, err := runAll(os.Stdout, *root, *timeout, mutants, goTest, stop)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(2)
	}
	fmt.Printf("killed %d of %d mutants that ran", t.killed, t.killed+t.survived)
	if t.broken > 0 {
		fmt.Printf("; %d did not build or ran no test: fix the list", t.broken)
	}
	fmt.Println()
	if t.survived+t.broken > 0 {
		os.Exit(1)
	}
}
