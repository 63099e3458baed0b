package yarnapp

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

func TestApplicationTags(t *testing.T) {
	got, err := applicationTags(" team-a, nightly,,GPU ")
	if err != nil || !slices.Equal(got, []string{"team-a", "nightly", "GPU"}) {
		t.Fatalf("applicationTags = %q, %v", got, err)
	}
	if got, err := applicationTags(""); err != nil || got != nil {
		t.Fatalf("no tags: %q, %v", got, err)
	}
	for _, bad := range []string{"ok,équipe", strings.Repeat("x", 101)} {
		if _, err := applicationTags(bad); err == nil || !strings.Contains(err.Error(), "spindle.yarn.tags: tag") {
			t.Errorf("applicationTags(%q) = %v, want an error naming the key and the tag", bad, err)
		}
	}
}

// interruptAt is a context that an interrupt cancels at its nth check (Err
// call): staging checks its context before each file, while copying one,
// and before submitting, so moving n moves the interrupt through each
// point between creating the staging directory and submitting.
type interruptAt struct {
	context.Context
	cancel context.CancelCauseFunc
	n      int
}

func (c *interruptAt) Err() error {
	if c.n--; c.n == 0 {
		c.cancel(errors.New("interrupted by interrupt"))
	}
	return c.Context.Err()
}

// Whenever an interrupt comes before the submission, nothing staged is
// left; after it, the staging directory is the application's. A refused
// submission leaves nothing either.
func TestStageAndSubmitLeavesNothingUntilSubmitted(t *testing.T) {
	src := t.TempDir()
	var files []staging.File
	for _, name := range []string{"spindle", JobFile, SettingsFile, "files.data.bin"} {
		p := filepath.Join(src, name)
		// Several reads, so several checks, per file.
		if err := os.WriteFile(p, bytes.Repeat([]byte{'x'}, 100<<10), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, staging.File{Local: p, Name: name})
	}
	stager, err := staging.New(hadoopconf.New(hadoopconf.Env{}), "alice", nil) // fs.defaultFS file:///
	if err != nil {
		t.Fatal(err)
	}
	defer stager.Close()
	tmp, root := t.TempDir(), t.TempDir()
	log, _ := logtest.NewNullLogger()
	gone := func(dir string) bool {
		_, err := os.Stat(dir)
		return errors.Is(err, fs.ErrNotExist)
	}

	dir := filepath.Join(root, "application_1_0001")
	for n := 1; ; n++ {
		parent, cancel := context.WithCancelCause(context.Background())
		submitted := false
		err := stageAndSubmit(&interruptAt{parent, cancel, n}, log, stager, dir, tmp, files, nil, func(context.Context, []*hadoopyarn.StringLocalResourceMapProto) error {
			submitted = true
			return nil
		})
		cancel(nil)
		if submitted {
			// The interrupt would have come after the last check.
			if err != nil || gone(dir) {
				t.Fatalf("submitted: %v; the staging directory is gone: %v", err, gone(dir))
			}
			if n < 2*len(files) {
				t.Fatalf("submitted at check %d: staging checked its context too rarely to test", n)
			}
			break
		}
		if !errors.Is(err, context.Canceled) && (err == nil || !strings.Contains(err.Error(), "interrupted by interrupt")) {
			t.Fatalf("interrupted at check %d: %v, want the interrupt", n, err)
		}
		if !gone(dir) {
			t.Fatalf("interrupted at check %d (%v): %s is left", n, err, dir)
		}
	}

	dir = filepath.Join(root, "application_1_0002")
	err = stageAndSubmit(context.Background(), log, stager, dir, tmp, files, nil, func(context.Context, []*hadoopyarn.StringLocalResourceMapProto) error {
		return errors.New("refused")
	})
	if err == nil || !strings.Contains(err.Error(), "refused") || !gone(dir) {
		t.Fatalf("a refused submission: %v; the staging directory is gone: %v", err, gone(dir))
	}
}

// The submitter removes the files of an application that failed or was
// killed (its AM removes them only on success), even once the interrupt
// that ended it cancelled its context.
func TestUnstageRemovesAnEndedApplicationsFiles(t *testing.T) {
	stager, err := staging.New(hadoopconf.New(hadoopconf.Env{}), "alice", nil) // fs.defaultFS file:///
	if err != nil {
		t.Fatal(err)
	}
	defer stager.Close()
	src := filepath.Join(t.TempDir(), "job.yaml")
	if err := os.WriteFile(src, []byte("name: j\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "application_1_0003")
	if _, err := stager.Stage(context.Background(), dir, []staging.File{{Local: src, Name: JobFile}}); err != nil {
		t.Fatal(err)
	}
	interrupted, cancel := context.WithCancel(context.Background())
	cancel()
	log, _ := logtest.NewNullLogger()
	(&Submitted{Stager: stager, Dir: dir}).Unstage(interrupted, log)
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s after Unstage: %v, want it gone", dir, err)
	}
}
