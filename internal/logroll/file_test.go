package logroll

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// read is a file's content, "" when it does not exist.
func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func write(t *testing.T, l *File, s string) {
	t.Helper()
	if n, err := l.Write([]byte(s)); err != nil || n != len(s) {
		t.Fatalf("Write(%q) = %d, %v", s, n, err)
	}
}

// A file fills to exactly the cap and stays; the next byte starts a new
// one, and the full file becomes NAME.1.
func TestRollsExactlyAtTheCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "driver.log")
	l, err := Open(path, Options{MaxBytes: 10, Keep: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	write(t, l, "12345")
	write(t, l, "67890") // exactly 10
	if got, old := read(t, path), read(t, path+".1"); got != "1234567890" || old != "" {
		t.Fatalf("at the cap: %q and .1 %q; want 1234567890 and nothing rolled", got, old)
	}
	write(t, l, "a")
	if got, old := read(t, path), read(t, path+".1"); got != "a" || old != "1234567890" {
		t.Fatalf("one byte past: %q and .1 %q; want a and 1234567890", got, old)
	}
}

// A write that does not fit goes whole into the next file: log lines are
// not split between files.
func TestAWriteThatDoesNotFitStartsTheNextFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.log")
	l, err := Open(path, Options{MaxBytes: 10, Keep: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	write(t, l, "line 1\n")
	write(t, l, "line 2\n")
	if got, old := read(t, path), read(t, path+".1"); got != "line 2\n" || old != "line 1\n" {
		t.Fatalf("%q and .1 %q; want each line whole in a file", got, old)
	}
}

// A write larger than a file is split, so that no file is ever over the
// cap.
func TestAWriteLargerThanTheCapIsSplit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.log")
	l, err := Open(path, Options{MaxBytes: 4, Keep: 5})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	write(t, l, "ab")
	write(t, l, "0123456789")
	for name, want := range map[string]string{path + ".3": "ab", path + ".2": "0123", path + ".1": "4567", path: "89"} {
		if got := read(t, name); got != want {
			t.Errorf("%s holds %q, want %q", filepath.Base(name), got, want)
		}
	}
}

// Exactly Keep old files are kept, the newest; the oldest drops off.
func TestKeepsKeepOldFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "executor.log")
	l, err := Open(path, Options{MaxBytes: 2, Keep: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, s := range []string{"a\n", "b\n", "c\n", "d\n", "e\n"} {
		write(t, l, s)
	}
	for name, want := range map[string]string{path: "e\n", path + ".1": "d\n", path + ".2": "c\n", path + ".3": "b\n", path + ".4": ""} {
		if got := read(t, name); got != want {
			t.Errorf("%s holds %q, want %q", filepath.Base(name), got, want)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 4 {
		t.Errorf("%d files, want the current one and 3 old ones", len(entries))
	}
}

// With Keep 0 the log starts again, empty, at the cap.
func TestKeepNoneStartsAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.log")
	l, err := Open(path, Options{MaxBytes: 3, Keep: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	write(t, l, "abc")
	write(t, l, "d")
	if got, old := read(t, path), read(t, path+".1"); got != "d" || old != "" {
		t.Fatalf("%q and .1 %q; want d and no old file", got, old)
	}
}

// A cap of 0 never rolls.
func TestNoCapNeverRolls(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.log")
	l, err := Open(path, Options{Keep: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	big := strings.Repeat("x", 1<<16)
	write(t, l, big)
	write(t, l, big)
	if got := read(t, path); len(got) != 2<<16 || read(t, path+".1") != "" {
		t.Fatalf("%d bytes and an old file %v; want all in one", len(got), read(t, path+".1") != "")
	}
}

// Opened again (a process started again on the same log), it appends to
// what is there and counts it toward the cap; old files beyond Keep, from
// a process that kept more, go.
func TestReopenedItGoesOnWhereItStopped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "driver.log")
	l, err := Open(path, Options{MaxBytes: 10, Keep: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"0123456789", "abcdefghij", "ABCDEFGHIJ", "klmnopqrst", "KLMN"} {
		write(t, l, s)
	}
	l.Close()
	if read(t, path+".4") != "0123456789" || read(t, path+".3") != "abcdefghij" {
		t.Fatalf("before reopening: .3 %q .4 %q", read(t, path+".3"), read(t, path+".4"))
	}
	if l, err = Open(path, Options{MaxBytes: 10, Keep: 2}); err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if read(t, path+".4") != "" || read(t, path+".3") != "" || read(t, path+".2") != "ABCDEFGHIJ" {
		t.Fatalf("reopened keeping 2: .3 %q and .4 %q left, .2 %q", read(t, path+".3"), read(t, path+".4"), read(t, path+".2"))
	}
	write(t, l, "OPQRST") // 4 + 6: exactly the cap
	if got := read(t, path); got != "KLMNOPQRST" {
		t.Fatalf("reopened: %q, want KLMNOPQRST (appended)", got)
	}
	write(t, l, "u")
	for name, want := range map[string]string{path: "u", path + ".1": "KLMNOPQRST", path + ".2": "klmnopqrst", path + ".3": ""} {
		if got := read(t, name); got != want {
			t.Errorf("%s holds %q, want %q", filepath.Base(name), got, want)
		}
	}
}

// A file already over the cap when opened rolls at the first write.
func TestReopenedOverTheCapRollsFirst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.log")
	os.WriteFile(path, []byte("0123456789ab"), 0o600)
	l, err := Open(path, Options{MaxBytes: 10, Keep: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	write(t, l, "x")
	if got, old := read(t, path), read(t, path+".1"); got != "x" || old != "0123456789ab" {
		t.Fatalf("%q and .1 %q", got, old)
	}
}

// Writers at once never take a file past the cap, and lose nothing
// between the files kept.
func TestConcurrentWritesStayWithinTheCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.log")
	l, err := Open(path, Options{MaxBytes: 100, Keep: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			line := []byte(strings.Repeat(string(rune('a'+w)), 9) + "\n")
			for range 200 {
				l.Write(line)
			}
		}()
	}
	wg.Wait()
	entries, _ := os.ReadDir(filepath.Dir(path))
	total := 0
	for _, e := range entries {
		b := read(t, filepath.Join(filepath.Dir(path), e.Name()))
		if len(b) > 100 {
			t.Errorf("%s holds %d bytes, over the cap", e.Name(), len(b))
		}
		total += len(b)
	}
	if total != 8*200*10 {
		t.Errorf("%d bytes in all, want %d", total, 8*200*10)
	}
}

func TestOpenRefusesNegativeOptions(t *testing.T) {
	for _, o := range []Options{{MaxBytes: -1}, {Keep: -1}} {
		if _, err := Open(filepath.Join(t.TempDir(), "x.log"), o); err == nil {
			t.Errorf("Open with %+v: no error", o)
		}
	}
}

// With Stderr, what the runtime writes to standard error, a panic, lands
// in the current file, also after a roll: a process started by the test
// logs, rolls, and panics.
func TestStderrCarriesAPanicIntoTheCurrentFile(t *testing.T) {
	if path := os.Getenv("LOGROLL_PANIC_LOG"); path != "" {
		l, err := Open(path, Options{MaxBytes: 64, Keep: 1})
		if err != nil || l.Stderr() != nil {
			os.Exit(3)
		}
		l.Write(bytes.Repeat([]byte("before the roll\n"), 4)) // 64 bytes: full
		l.Write([]byte("after the roll\n"))
		panic("boom")
	}
	path := filepath.Join(t.TempDir(), "am.stderr")
	cmd := exec.Command(os.Args[0], "-test.run=^TestStderrCarriesAPanicIntoTheCurrentFile$")
	cmd.Env = append(os.Environ(), "LOGROLL_PANIC_LOG="+path)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Fatalf("the panicking process: %v, want exit status 2; its output:\n%s", err, out)
	}
	cur, old := read(t, path), read(t, path+".1")
	if !strings.HasPrefix(cur, "after the roll\npanic: boom") || strings.Contains(old, "panic") {
		t.Errorf("current file:\n%s\nold file:\n%s\nwant the panic after the last line, in the current file", cur, old)
	}
	if strings.Contains(string(out), "panic: boom") {
		t.Errorf("the panic went to the original standard error too:\n%s", out)
	}
}
