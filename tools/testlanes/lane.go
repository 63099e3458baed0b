package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Lane is a command that writes go test's events.
type Lane struct {
	Name, Command string
}

// Result is how a lane went.
type Result struct {
	Lane     Lane
	Wall     time.Duration
	Tests    []Test
	Failures []string // packages or builds that failed outside any test, with their output
	Marked   []string
	Err      error // the command's, or reading its events'
	Stderr   string
}

// Run runs every lane at once in dir, printing a line to w as each
// top-level test ends, and returns their results in lane order. Each
// lane's raw events and stderr are written to out.
func Run(ls []Lane, dir, out string, w io.Writer, mark string) []Result {
	results := make([]Result, len(ls))
	var mu sync.Mutex // w, for lines from many lanes
	var wg sync.WaitGroup
	for i, l := range ls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = runLane(l, dir, out, mark, func(t Test) {
				mu.Lock()
				defer mu.Unlock()
				fmt.Fprintf(w, "%-4s %s | %s (%s)\n", strings.ToUpper(t.Action), l.Name, t.Name, t.Elapsed.Round(time.Second/10))
			})
		}()
	}
	wg.Wait()
	return results
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func runLane(l Lane, dir, out, mark string, ended func(Test)) Result {
	res := Result{Lane: l}
	base := filepath.Join(out, unsafeName.ReplaceAllString(l.Name, "-"))
	events, err := os.Create(base + ".json")
	if err != nil {
		res.Err = err
		return res
	}
	defer events.Close()
	var stderr strings.Builder
	errFile, err := os.Create(base + ".stderr")
	if err != nil {
		res.Err = err
		return res
	}
	defer errFile.Close()
	cmd := exec.Command("bash", "-c", l.Command)
	cmd.Dir = dir
	cmd.Stderr = io.MultiWriter(errFile, &tail{b: &stderr, most: 8 << 10})
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		res.Err = err
		return res
	}
	began := time.Now()
	if res.Err = cmd.Start(); res.Err != nil {
		return res
	}
	r := newReader(l.Name, mark)
	readErr := r.read(io.TeeReader(stdout, events), func(t Test) {
		res.Tests = append(res.Tests, t)
		ended(t)
	}, func(pkg, output string) {
		res.Failures = append(res.Failures, pkg+":\n"+output)
	})
	res.Err = cmd.Wait()
	if res.Err == nil {
		res.Err = readErr
	}
	res.Wall, res.Marked, res.Stderr = time.Since(began), r.marked, stderr.String()
	return res
}

// tail keeps the last most bytes written to it.
type tail struct {
	b    *strings.Builder
	most int
}

func (t *tail) Write(p []byte) (int, error) {
	s := t.b.String() + string(p)
	if len(s) > t.most {
		s = s[len(s)-t.most:]
	}
	t.b.Reset()
	t.b.WriteString(s)
	return len(p), nil
}
