package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"
)

const (
	magic = "spindle-journal"
	// version 2 journals succeeded tasks as sets (Tasks) and names
	// segments by attempt; version 1 had a line per task.
	version = 2
	// MaxSegmentBytes bounds a segment: a reader refuses a longer one,
	// and a writer writes none (Writer.Flush). A snapshot is the size of
	// the live state: its jobs' specs (1 MiB each at most), their done
	// tasks (Tasks) and its executors.
	MaxSegmentBytes = 256 << 20
)

// Kind is a segment's kind.
type Kind string

const (
	Snapshot Kind = "snapshot"
	Delta    Kind = "delta"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Encode writes a segment of app's journal.
func Encode(app string, kind Kind, entries []Entry) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %d %s %s\n", magic, version, app, kind)
	for _, e := range entries {
		line, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "%08x %s\n", crc32.Checksum(line, castagnoli), line)
	}
	return b.Bytes(), nil
}

// Decode reads segment name of app's journal: its kind and entries, or
// an error naming the segment and line.
func Decode(name string, data []byte, app string) (Kind, []Entry, error) {
	fail := func(line int, format string, args ...any) (Kind, []Entry, error) {
		return "", nil, fmt.Errorf("journal segment %s line %d: %s", name, line, fmt.Sprintf(format, args...))
	}
	if len(data) > MaxSegmentBytes {
		return fail(0, "%d bytes, over the %d a segment may have", len(data), MaxSegmentBytes)
	}
	if len(data) == 0 || data[len(data)-1] != '\n' {
		return fail(0, "cut short: it does not end with a whole line")
	}
	lines := strings.Split(string(data[:len(data)-1]), "\n")
	h := strings.Fields(lines[0])
	if len(h) != 4 || h[0] != magic {
		return fail(1, "not a Spindle journal segment (header %.80q)", lines[0])
	}
	if v, err := strconv.Atoi(h[1]); err != nil || v != version {
		return fail(1, "version %q; this Spindle reads version %d", h[1], version)
	}
	if h[2] != app {
		return fail(1, "it is application %s's journal, not %s's", h[2], app)
	}
	kind := Kind(h[3])
	if kind != Snapshot && kind != Delta {
		return fail(1, "kind %q: want snapshot or delta", h[3])
	}
	entries := make([]Entry, 0, len(lines)-1)
	for i, line := range lines[1:] {
		sum, body, ok := strings.Cut(line, " ")
		want, err := strconv.ParseUint(sum, 16, 32)
		if !ok || len(sum) != 8 || err != nil {
			return fail(i+2, "no checksum")
		}
		if got := crc32.Checksum([]byte(body), castagnoli); uint32(want) != got {
			return fail(i+2, "checksum %08x, but the entry sums to %08x: the segment is corrupt", want, got)
		}
		dec := json.NewDecoder(strings.NewReader(body))
		dec.DisallowUnknownFields()
		var e Entry
		if err := dec.Decode(&e); err != nil {
			return fail(i+2, "%v", err)
		}
		if dec.More() {
			return fail(i+2, "more than one entry")
		}
		entries = append(entries, e)
	}
	return kind, entries, nil
}
