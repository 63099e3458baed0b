package main

import (
	"bytes"
	"encoding/json"
)

// event is what judge reads of one of go test -json's events.
type event struct {
	Action, Package, Test, FailedBuild string
}

// judge tells a mutant's fate from go test -json's events and its error.
// Only a package whose tests ran and then failed kills the mutant: a test
// failed, or the test binary died in one (a panic, a timeout, an exit).
// One that did not build, or whose binary failed before running a test (a
// flag it refuses, a -run that is no regexp, an init that panics), ran
// nothing, and neither did a go test that failed with no package failing
// (arguments it refuses).
func judge(events []byte, err error) outcome {
	ran := map[string]bool{} // packages that ran a test
	killed, notRun := false, false
	for line := range bytes.Lines(events) {
		var e event
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		switch {
		case e.Action == "run" && e.Test != "":
			ran[e.Package] = true
		case e.Action == "fail" && e.Test == "" && e.FailedBuild == "" && ran[e.Package]:
			killed = true
		case e.Action == "fail" && e.Test == "":
			notRun = true
		}
	}
	switch {
	case notRun:
		return broken
	case killed:
		return failed
	case err != nil:
		return broken
	}
	return passed
}
