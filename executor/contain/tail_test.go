package contain

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// pattern is n bytes of numbered lines, so a tail can be checked exactly.
func pattern(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "line %07d\n", i)
	}
	return b.Bytes()[:n]
}

// writeTail writes data to a tailFile capped at max in chunks of chunk
// bytes and returns the file's content and the count cut.
func writeTail(t *testing.T, data []byte, max int64, chunk int) ([]byte, int64) {
	t.Helper()
	path := tempPath(t, "out")
	tf, err := openTail(path, max)
	if err != nil {
		t.Fatal(err)
	}
	for len(data) > 0 {
		k := min(chunk, len(data))
		tf.Write(data[:k])
		data = data[k:]
	}
	cut, err := tf.Close()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".1"); !os.IsNotExist(err) {
		t.Errorf("%s.1 left behind: %v", path, err)
	}
	return got, cut
}

func TestTailAtTheCapKeepsEverything(t *testing.T) {
	data := pattern(4096)
	got, cut := writeTail(t, data, 4096, 1000)
	if cut != 0 || !bytes.Equal(got, data) {
		t.Errorf("cut %d, %d bytes kept; want all 4096 and no cut", cut, len(got))
	}
}

func TestTailOnePastTheCapKeepsTheTail(t *testing.T) {
	for _, c := range []struct {
		size, chunk int
	}{{4097, 1000}, {4097, 4097}, {100_000, 333}, {1 << 20, 64 << 10}} {
		data := pattern(c.size)
		got, cut := writeTail(t, data, 4096, c.chunk)
		if len(got) > 4096 {
			t.Errorf("%d bytes: file of %d bytes, over the cap", c.size, len(got))
		}
		notice, rest, ok := bytes.Cut(got, []byte("\n"))
		if !ok || !strings.HasPrefix(string(notice), fmt.Sprintf("[spindle: the first %d bytes", cut)) {
			t.Errorf("%d bytes: first line %q does not state the cut of %d", c.size, notice, cut)
		}
		if !bytes.HasSuffix(data, rest) || int64(len(rest))+cut != int64(c.size) {
			t.Errorf("%d bytes: kept %d bytes that are not the tail, cut %d", c.size, len(rest), cut)
		}
	}
}

func TestTailWithoutCapKeepsEverything(t *testing.T) {
	data := pattern(50_000)
	if got, cut := writeTail(t, data, 0, 777); cut != 0 || !bytes.Equal(got, data) {
		t.Errorf("uncapped: cut %d, kept %d of %d", cut, len(got), len(data))
	}
}

func TestTailCapBelowTheMinimumIsRefused(t *testing.T) {
	if _, err := openTail(tempPath(t, "x"), MinOutputCap-1); err == nil {
		t.Error("a cap below the minimum was accepted")
	}
	if tf, err := openTail(tempPath(t, "x"), MinOutputCap); err != nil {
		t.Errorf("the minimum cap was refused: %v", err)
	} else {
		tf.Close()
	}
}

// A contained process's output files are capped the same way, the cut is
// reported, and a file shared by both streams keeps both.
func TestProcessOutputIsCapped(t *testing.T) {
	out, errPath := tempPath(t, "stdout"), tempPath(t, "stderr")
	res := run(t, Spec{Argv: sh("head -c 10000 /dev/zero; head -c 2048 /dev/zero >&2"), StdoutPath: out, StderrPath: errPath, MaxOutput: 2048})
	if res.ExitCode != 0 || res.StdoutCut == 0 || res.StderrCut != 0 {
		t.Errorf("exit %d, cut %d/%d; want stdout cut and stderr (exactly at the cap) whole", res.ExitCode, res.StdoutCut, res.StderrCut)
	}
	for p, max := range map[string]int{out: 2048, errPath: 2048} {
		if fi, err := os.Stat(p); err != nil || fi.Size() > int64(max) {
			t.Errorf("%s: %v, want at most %d bytes", p, err, max)
		}
	}
	both := tempPath(t, "both")
	res = run(t, Spec{Argv: sh("echo a; echo b >&2; cat; echo c"), StdoutPath: both, StderrPath: both})
	if b, _ := os.ReadFile(both); string(b) != "a\nb\nc\n" || res.ExitCode != 0 {
		t.Errorf("shared file = %q, exit %d", b, res.ExitCode)
	}
}
