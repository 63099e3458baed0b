package staging

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/namenode"
	"github.com/spindle-yarn/spindle/yarnpb/namenode/namenodetest"
)

const xattrDir = "/user/alice/.spindle/application_1_0001/journal"

// xattrStore is a segment store in xattrDir on nn, whose attributes are
// of 64 bytes at most, 4 to a file: small, so that a segment spans
// several.
func xattrStore(t *testing.T, nn *namenodetest.NameNode) *XAttrSegments {
	t.Helper()
	nn.MaxXAttrSize, nn.MaxXAttrsPerPath = 64, 4
	c, err := namenode.New([]string{nn.Start(t)}, ipc.Options{Auth: ipc.Auth{User: "alice"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	x, err := NewXAttrSegments(c, confWith("dfs.namenode.fs-limits.max-xattr-size", "64", "dfs.namenode.fs-limits.max-xattrs-per-inode", "4"), xattrDir)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// A segment of several attributes reads back whole; it is a completed
// empty file under its own name, and its directory is made once.
func TestXAttrSegmentsReadBackWhole(t *testing.T) {
	ctx := context.Background()
	nn := &namenodetest.NameNode{}
	x := xattrStore(t, nn)
	// 64 bytes less the longest name, spindle.segment.3-of-4.
	if got, want := x.SegmentLimit(), 4*(64-len("spindle.segment.3-of-4")); got != want {
		t.Errorf("SegmentLimit = %d, want %d", got, want)
	}
	if names, err := x.List(ctx); err != nil || len(names) != 0 {
		t.Errorf("a journal never written lists %v, %v", names, err)
	}
	data := bytes.Repeat([]byte("0123456789"), 12)
	for _, name := range []string{"a0000000001-0000000000.seg", "a0000000001-0000000001.seg"} {
		if err := x.Write(ctx, name, data); err != nil {
			t.Fatal(err)
		}
	}
	names, err := x.List(ctx)
	if err != nil || !slices.Equal(names, []string{"a0000000001-0000000000.seg", "a0000000001-0000000001.seg"}) {
		t.Errorf("List = %v, %v", names, err)
	}
	if got, err := x.Read(ctx, names[1]); err != nil || !bytes.Equal(got, data) {
		t.Errorf("Read = %q, %v; want %q", got, err, data)
	}
	if n := len(nn.XAttrs(xattrDir + "/" + names[1])); n != 3 {
		t.Errorf("120 bytes in %d attributes of 42; want 3", n)
	}
	if exists, open := nn.File(xattrDir + "/" + names[1]); !exists || open {
		t.Errorf("the segment: a file %v, still open %v; want a completed file", exists, open)
	}
	if mkdirs := countCalls(nn, "mkdirs"); mkdirs != 1 {
		t.Errorf("the directory was made %d times for two segments; want once", mkdirs)
	}
	if err := x.Remove(ctx, names[0]); err != nil {
		t.Fatal(err)
	}
	if names, _ := x.List(ctx); !slices.Equal(names, []string{"a0000000001-0000000001.seg"}) {
		t.Errorf("after Remove, List = %v", names)
	}
	if err := x.Write(ctx, "big.seg", make([]byte, x.SegmentLimit()+1)); err == nil {
		t.Error("a segment over SegmentLimit was written")
	}
}

func countCalls(nn *namenodetest.NameNode, method string) int {
	n := 0
	for _, m := range nn.Calls() {
		if m == method {
			n++
		}
	}
	return n
}

// A write that fails at any step leaves nothing under the segment's
// name; the next write of it goes over what the failed one left.
func TestXAttrSegmentsAreSeenWholeOrNotAtAll(t *testing.T) {
	ctx := context.Background()
	for _, step := range []string{"create", "setXAttr", "complete", "rename2"} {
		t.Run(step, func(t *testing.T) {
			nn := &namenodetest.NameNode{}
			x := xattrStore(t, nn)
			// Fail is called under the NameNode's lock: it counts for itself.
			failing, calls := true, 0
			nn.Fail = func(method, _ string) error {
				if method != step {
					return nil
				}
				calls++
				// A setXAttr fails at the segment's second attribute.
				if failing && (step != "setXAttr" || calls == 2) {
					return errors.New("the NameNode failed " + method)
				}
				return nil
			}
			data := bytes.Repeat([]byte("x"), 100)
			if err := x.Write(ctx, "s.seg", data); err == nil {
				t.Fatal("a write whose " + step + " failed succeeded")
			}
			if names, _ := x.List(ctx); slices.Contains(names, "s.seg") {
				t.Errorf("the segment is there after its %s failed: %v", step, names)
			}
			failing = false
			if err := x.Write(ctx, "s.seg", data); err != nil {
				t.Fatalf("writing it again: %v", err)
			}
			if got, err := x.Read(ctx, "s.seg"); err != nil || !bytes.Equal(got, data) {
				t.Errorf("Read = %q, %v", got, err)
			}
			if got := nn.Paths(); slices.ContainsFunc(got, func(p string) bool { return strings.HasSuffix(p, ".tmp") }) {
				t.Errorf("a temporary file is left: %v", got)
			}
		})
	}
}

// A reader takes a segment's attributes and nothing else: another's
// attribute is left aside, and one missing, or disagreeing on their
// count, makes the segment unreadable rather than short.
func TestXAttrSegmentsRefusePart(t *testing.T) {
	ctx := context.Background()
	nn := &namenodetest.NameNode{}
	x := xattrStore(t, nn)
	data := bytes.Repeat([]byte("y"), 100)
	if err := x.Write(ctx, "s.seg", data); err != nil {
		t.Fatal(err)
	}
	p := xattrDir + "/s.seg"
	nn.SetXAttr(p, "note", []byte("an admin's"))
	if got, err := x.Read(ctx, "s.seg"); err != nil || !bytes.Equal(got, data) {
		t.Errorf("with another attribute beside it: Read = %q, %v", got, err)
	}
	nn.SetXAttr(p, "spindle.segment.3-of-4", []byte("z"))
	if _, err := x.Read(ctx, "s.seg"); err == nil || !strings.Contains(err.Error(), "is a part of") {
		t.Errorf("with a part of another count: %v", err)
	}
	// Parts 0 and 2 of 3, the middle one lost.
	gap := xattrDir + "/t.seg"
	if _, err := x.nn.Create(ctx, gap, x.file); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 2} {
		if err := x.nn.SetXAttr(ctx, gap, chunkName(i, 3), []byte("z")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := x.Read(ctx, "t.seg"); err == nil || !strings.Contains(err.Error(), "user.spindle.segment.1-of-3 is missing") {
		t.Errorf("with a part missing: %v", err)
	}
	nn.SetXAttr(gap, "spindle.segment.0-of-99", []byte("z"))
	if _, err := x.Read(ctx, "t.seg"); err == nil || !strings.Contains(err.Error(), "no part of a segment") {
		t.Errorf("with a part of more than a file holds: %v", err)
	}
	for _, s := range []string{"1-of-1", "01-of-2", "0-of-0", "-1-of-2", "0of2", "0-of-2x"} {
		if _, _, ok := parseChunk(s); ok {
			t.Errorf("parseChunk(%q) ok", s)
		}
	}
}

// The journal's writer keeps to the store's limit: a snapshot it cannot
// hold is cut to the ids taken, which the next attempt reads.
func TestTheJournalKeepsToTheNameNodesLimits(t *testing.T) {
	ctx := context.Background()
	nn := &namenodetest.NameNode{}
	x := xattrStore(t, nn)
	log, _ := logtest.NewNullLogger()
	w := journal.NewWriter(journal.WriterConfig{Store: x, Attempt: 1, Log: log}, journal.NewState("application_1_0001"))
	w.Append(journal.Entry{Job: &journal.Job{ID: 0, Spec: []byte("{}"), StageProfiles: []int{0}}})
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	w.Append(journal.Entry{Job: &journal.Job{ID: 1, Spec: []byte(`{"name":"` + strings.Repeat("j", 200) + `"}`), StageProfiles: []int{0}}})
	if err := w.Flush(ctx); err != nil {
		t.Fatalf("a segment over the NameNode's limits failed to write rather than being cut: %v", err)
	}
	st, err := journal.Load(ctx, x, "application_1_0001")
	if err != nil || len(st.Jobs) != 0 || st.NextJob != 2 {
		t.Errorf("Load = %+v, %v; want no job, the next numbered 2", st, err)
	}
}
