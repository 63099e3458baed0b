package integration

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// exampleTest and exampleEnds are the comment lines of a job spec under
// examples/ that say how to run it here and how it ends:
//
//	#   test: spindle submit --master 'local[2]' ... examples/x/job.yaml
//	#   ends: succeeds        (or: fails)
//
// The command runs from the repository root; its words are split at
// spaces, a word's surrounding single quotes dropped (as a shell would).
// An example that needs YARN or GPUs says how it runs in local mode,
// with fake GPU addresses (spindle.worker.resource.gpu.addresses).
var (
	exampleTest = regexp.MustCompile(`(?m)^#\s*test: spindle (.+)$`)
	exampleEnds = regexp.MustCompile(`(?m)^#\s*ends: (succeeds|fails)$`)
)

// Every job spec under examples/, found by walking it (a new one is
// covered as it is added), runs as its comment says and ends as it says.
func TestExamplesEndAsTheySay(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var specs []string
	err = filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			specs = append(specs, path)
		}
		return err
	})
	if err != nil || len(specs) == 0 {
		t.Fatalf("job specs under examples/: %v, %v", specs, err)
	}
	for _, spec := range specs {
		rel, _ := filepath.Rel(root, spec)
		t.Run(rel, func(t *testing.T) { runExample(t, root, rel) })
	}
}

// runExample runs the example rel (a path from root) by its test line
// and checks it ends as its ends line says.
func runExample(t *testing.T, root, rel string) {
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	tests, ends := exampleTest.FindAllStringSubmatch(string(b), -1), exampleEnds.FindAllStringSubmatch(string(b), -1)
	if len(tests) != 1 || len(ends) != 1 {
		t.Fatalf("%s: want one comment line \"#   test: spindle ...\" and one \"#   ends: succeeds|fails\", have %d and %d", rel, len(tests), len(ends))
	}
	var args []string
	for _, w := range strings.Fields(tests[0][1]) {
		args = append(args, strings.TrimSuffix(strings.TrimPrefix(w, "'"), "'"))
	}
	if args[len(args)-1] != rel {
		t.Fatalf("%s: its test line runs %s, not itself", rel, args[len(args)-1])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, spindleBinary(t), args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
	began := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("spindle %s: %v in %v", tests[0][1], err, time.Since(began).Round(time.Millisecond))
	succeeded := err == nil && regexp.MustCompile(`(?m)^job \S+ SUCCEEDED$`).Match(out)
	if want := ends[0][1] == "succeeds"; succeeded != want {
		t.Errorf("%s: the comment says it %s; it ended: %v\n%s", rel, ends[0][1], err, out)
	}
}
