package appmaster

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
)

// printTimings reports how long the application took to get going, from
// the submitter's clock (SPINDLE_SUBMIT_UNIX_MS), and the AM's peak
// resident memory: the figures of docs/yarn.md.
func printTimings(w io.Writer, sum core.Summary, executors int) {
	ms, _ := strconv.ParseInt(os.Getenv("SPINDLE_SUBMIT_UNIX_MS"), 10, 64)
	submitted := time.UnixMilli(ms)
	if ms > 0 && !sum.FirstLaunch.IsZero() {
		fmt.Fprintf(w, "  submit to first task launched: %s\n", sum.FirstLaunch.Sub(submitted).Round(time.Millisecond))
	}
	if ms > 0 && len(sum.Registered) >= executors && executors > 0 {
		fmt.Fprintf(w, "  submit to all %d executors registered: %s\n", executors, sum.Registered[executors-1].Sub(submitted).Round(time.Millisecond))
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		fmt.Fprintf(w, "  ApplicationMaster peak resident memory: %.1f MiB\n", float64(ru.Maxrss)/1024) // Linux reports KiB
	}
}
