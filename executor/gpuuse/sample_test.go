package gpuuse

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// An H100 pair as nvidia-smi 550 prints them with Query.
const twoGPUs = "0, GPU-5d9a1b2c-0000-1111-2222-333344445555, 37, 1024, 81559\n" +
	"1, GPU-8f2e7c6d-aaaa-bbbb-cccc-ddddeeeeffff, 0, 4, 81559\n"

func TestParseReadsEveryFigure(t *testing.T) {
	got, err := Parse([]byte(twoGPUs))
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(got)
	want := `[{"index":0,"uuid":"GPU-5d9a1b2c-0000-1111-2222-333344445555","utilization_pct":37,"memory_used_mib":1024,"memory_total_mib":81559},` +
		`{"index":1,"uuid":"GPU-8f2e7c6d-aaaa-bbbb-cccc-ddddeeeeffff","utilization_pct":0,"memory_used_mib":4,"memory_total_mib":81559}]`
	if string(js) != want {
		t.Errorf("Parse = %s\nwant     %s", js, want)
	}
}

// A figure nvidia-smi has not got is absent, not 0: a zero would say the
// GPU is idle.
func TestParseLeavesOutWhatNvidiaSMIHasNot(t *testing.T) {
	got, err := Parse([]byte("2, GPU-x, [N/A], [Not Supported], 16384"))
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(got)
	if want := `[{"index":2,"uuid":"GPU-x","memory_total_mib":16384}]`; string(js) != want {
		t.Errorf("Parse = %s; want %s", js, want)
	}
}

func TestParseOfNothingIsNoSamples(t *testing.T) {
	for _, out := range []string{"", "\n"} {
		if got, err := Parse([]byte(out)); err != nil || len(got) != 0 {
			t.Errorf("Parse(%q) = %v, %v; want nothing", out, got, err)
		}
	}
}

func TestParseRefusesWhatIsNotQuerysOutput(t *testing.T) {
	for _, c := range []struct{ out, err string }{
		{"index, uuid, utilization.gpu [%], memory.used [MiB], memory.total [MiB]", `line 1 "index, uuid, utilization.gpu [%], memory.used [MiB], memory.total [MiB]": index "index"`},
		{"0, GPU-a, 37 %, 1024 MiB, 81559 MiB", `utilization.gpu "37 %": want a whole number from 0 to 100`},
		{"0, GPU-a, 37, 1024", "4 fields; want 5"},
		{"0, GPU-a, 37, 1024, 81559, 9", "6 fields; want 5"},
		{"[N/A], GPU-a, 37, 1024, 81559", `index "[N/A]": every GPU has one`},
		{"-1, GPU-a, 37, 1024, 81559", `index "-1": want a whole number from 0`},
		{"0, , 37, 1024, 81559", `uuid "": want the GPU's name`},
		{"0, [N/A], 37, 1024, 81559", `uuid "[N/A]"`},
		{"0, GPU-a, 101, 1024, 81559", `utilization.gpu "101": want a whole number from 0 to 100`},
		{"0, GPU-a, -1, 1024, 81559", `utilization.gpu "-1"`},
		{"0, GPU-a, +5, 1024, 81559", `utilization.gpu "+5"`},
		{"0, GPU-a, 3.5, 1024, 81559", `utilization.gpu "3.5"`},
		{"0, GPU-a, 37, -4, 81559", `memory.used "-4"`},
		{"0, GPU-a, 37, 4, 1099511627777", `memory.total "1099511627777": want a whole number from 0 to 1099511627776`},
		{"0, GPU-a, [], 4, 8", `utilization.gpu "[]"`},
		{"0, GPU-a, [[N/A]], 4, 8", `utilization.gpu "[[N/A]]"`},
		{"0, GPU-a, 1, 4, 8\n\n1, GPU-b, 1, 4, 8", "line 2 \"\": 1 fields"},
		{"0, GPU-a, 1, 4, 8\n0, GPU-b, 1, 4, 8", "line 2 \"0, GPU-b, 1, 4, 8\": GPU index 0 again"},
		{"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.", "1 fields; want 5"},
	} {
		_, err := Parse([]byte(c.out))
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("Parse(%q) = %v; want an error containing %q", c.out, err, c.err)
		}
	}
}

// The figures' bounds hold at the bound and fail one past it.
func TestParseBounds(t *testing.T) {
	for _, c := range []struct {
		line string
		ok   bool
	}{
		{"0, GPU-a, 100, 0, 0", true},
		{"0, GPU-a, 101, 0, 0", false},
		{"0, GPU-a, 0, 1099511627776, 1099511627776", true},
		{"0, GPU-a, 0, 1099511627777, 0", false},
		{"2147483647, GPU-a, 0, 0, 0", true},
		{"2147483648, GPU-a, 0, 0, 0", false},
	} {
		if _, err := Parse([]byte(c.line)); (err == nil) != c.ok {
			t.Errorf("Parse(%q) = %v; want ok %v", c.line, err, c.ok)
		}
	}
}

// MaxGPUs lines are read, one more is refused; MaxOutput bytes are read,
// one more is refused.
func TestParseLimits(t *testing.T) {
	lines := func(n int) []byte {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%d, GPU-%d, 1, 2, 3\n", i, i)
		}
		return []byte(b.String())
	}
	if got, err := Parse(lines(MaxGPUs)); err != nil || len(got) != MaxGPUs {
		t.Errorf("%d lines: %d samples, %v", MaxGPUs, len(got), err)
	}
	if _, err := Parse(lines(MaxGPUs + 1)); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d lines; at most %d GPUs", MaxGPUs+1, MaxGPUs)) {
		t.Errorf("%d lines: %v; want refused", MaxGPUs+1, err)
	}
	// One line padded with spaces to exactly MaxOutput bytes, then one more.
	line := "0, GPU-a, 1, 2, 3"
	full := []byte(line + strings.Repeat(" ", MaxOutput-len(line)))
	if got, err := Parse(full); err != nil || len(got) != 1 {
		t.Errorf("%d bytes: %v, %v", len(full), got, err)
	}
	if _, err := Parse(append(full, ' ')); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("printed %d bytes; at most %d", MaxOutput+1, MaxOutput)) {
		t.Errorf("%d bytes: %v; want refused", MaxOutput+1, err)
	}
}
