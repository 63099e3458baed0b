package main

import (
	"cmp"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Summarize writes what failed, each lane's wall time and counts, the
// slowest tests and the marked lines, and says whether every lane
// passed.
func Summarize(w io.Writer, results []Result, slowest int, mark string) bool {
	ok := true
	var all []Test
	for _, r := range results {
		for _, t := range r.Tests {
			if t.Action == "fail" {
				fmt.Fprintf(w, "\n--- FAIL %s | %s (%s)\n%s%s", r.Lane.Name, t.Name, t.Elapsed.Round(time.Second/10), t.Output, ownWords(t.Output))
			}
		}
		for _, f := range r.Failures {
			fmt.Fprintf(w, "\n--- FAIL %s | %s", r.Lane.Name, f)
		}
		all = append(all, r.Tests...)
	}
	fmt.Fprintln(w, "\nlanes:")
	for _, r := range results {
		counts := map[string]int{}
		for _, t := range r.Tests {
			counts[t.Action]++
		}
		verdict := "ok"
		switch {
		case r.Err != nil:
			verdict = "FAIL: " + r.Err.Error()
		case counts["fail"] > 0 || len(r.Failures) > 0:
			verdict = "FAIL"
		case len(r.Tests) == 0:
			verdict = "FAIL: it ran no test"
		}
		if verdict != "ok" {
			ok = false
		}
		fmt.Fprintf(w, "  %-28s %7s  %d passed, %d failed, %d skipped  %s\n", r.Lane.Name, r.Wall.Round(time.Second), counts["pass"], counts["fail"], counts["skip"], verdict)
		if r.Err != nil && r.Stderr != "" {
			fmt.Fprintf(w, "    its stderr ends:\n%s\n", indent(r.Stderr))
		}
	}
	slices.SortStableFunc(all, func(a, b Test) int { return cmp.Compare(b.Elapsed, a.Elapsed) })
	fmt.Fprintf(w, "slowest %d tests:\n", min(slowest, len(all)))
	for _, t := range all[:min(slowest, len(all))] {
		fmt.Fprintf(w, "  %7s  %s | %s\n", t.Elapsed.Round(time.Second/10), t.Lane, t.Name)
	}
	if mark != "" {
		for _, r := range results {
			for _, m := range r.Marked {
				fmt.Fprintf(w, "  %s | %s\n", r.Lane.Name, m)
			}
		}
	}
	return ok
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

// ownWords repeats the lines a failed test wrote from its own files
// (NAME_test.go:LINE: ...), the assertions that say why it failed: a
// test's output often ends in pages of log tails it printed as it
// failed, and whoever reads only the end of a CI log must still find
// why.
func ownWords(output string) string {
	var b strings.Builder
	for _, l := range strings.Split(output, "\n") {
		if testLine.MatchString(l) {
			b.WriteString("  " + strings.TrimSpace(l) + "\n")
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "  its own words, again:\n" + b.String()
}

// testLine is a line testing's t.Log and t.Error write from a test file.
var testLine = regexp.MustCompile(`^\s+\w+_test\.go:\d+: `)
