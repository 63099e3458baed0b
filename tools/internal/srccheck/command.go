package srccheck

import (
	"flag"
	"fmt"
	"os"
)

// Args registers -root, parses the command line and returns the root and
// the PATHs after the flags. With no PATH it returns def; with no def
// either it prints usage and exits 2. A check's flags of its own are
// registered before.
func Args(usage string, def ...string) (root string, paths []string) {
	r := flag.String("root", ".", "the repository: PATHs and findings are relative to it")
	flag.Parse()
	paths = flag.Args()
	if len(paths) == 0 {
		paths = def
	}
	if len(paths) == 0 {
		fmt.Fprintln(os.Stderr, "usage:", usage)
		os.Exit(2)
	}
	return *r, paths
}

// ExitOnError ends the check with status 2, saying err after its name,
// when err is not nil: the check could not be made.
func ExitOnError(name string, err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(2)
	}
}

// Finish prints each finding, a line each; with any, it prints summary,
// whose %d is their count, and exits 1.
func Finish[F fmt.Stringer](findings []F, summary string) {
	for _, f := range findings {
		fmt.Println(f)
	}
	if len(findings) > 0 {
		fmt.Printf(summary+"\n", len(findings))
		os.Exit(1)
	}
}
