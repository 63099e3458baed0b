package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/tools/internal/srccheck/srctest"
)

// findings checks dirs of testdata and returns the findings as
// "file:line: what" strings, file relative to testdata.
func findings(t *testing.T, dirs ...string) []string {
	t.Helper()
	f, err := Check("testdata", dirs)
	if err != nil {
		t.Fatal(err)
	}
	return srctest.Lines(f)
}

// Shared helpers in a helpers file, a file's own helpers with it, a
// local shadowing another file's helper, a method a file declares on a
// helpers file's type and alone calls, a file's own type whose method's
// name other files select, and a helpers file's method on the package's
// own type: nothing to find.
func TestCleanPackageHasNoFindings(t *testing.T) {
	srctest.ExpectPrefixes(t, findings(t, "clean"))
}

// A test file's helpers that other files name, its methods on a helpers
// file's type that other files select (through a local or a package-level
// variable), and a helpers file's test and unused helper are found.
func TestStrayHelpers(t *testing.T) {
	a, b, h := filepath.Join("stray", "a_test.go"), filepath.Join("stray", "b_test.go"), filepath.Join("stray", "helpers_user_test.go")
	srctest.ExpectPrefixes(t, findings(t, "stray"),
		a+":6: shared is used by b_test.go:",
		a+":8: args is used by b_test.go:",
		a+":15: startJob is used by b_test.go:",
		b+":6: method user.extra may be called by a_test.go (they select .extra):",
		b+":9: method user.name may be called by a_test.go (they select .name):",
		h+":10: unused is a helper no file uses",
		h+":12: TestInHelpers is a test in a helpers file")
}

// Two functions the same but for their own names are found across
// directories, and two methods; one that differs in a call, a result or
// a package-level name it uses is not.
func TestTwins(t *testing.T) {
	read := filepath.Join("twins", "one", "read.go")
	srctest.ExpectPrefixes(t, findings(t, filepath.Join("twins", "one"), filepath.Join("twins", "two")),
		read+":36: length does what size ("+read+":34) does: keep one",
		filepath.Join("twins", "two", "slurp_test.go")+":6: slurp does what readText ("+read+":6) does: keep one")
}

func TestDirectoryWithoutGoFilesIsAnError(t *testing.T) {
	if _, err := Check("testdata", []string{"twins"}); err == nil || !strings.Contains(err.Error(), "twins: no Go files") {
		t.Fatalf("error %v, want twins: no Go files", err)
	}
}
