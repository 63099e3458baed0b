package splits

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzPlan cuts listings made from the fuzzer's bytes by each mode and
// checks what every caller relies on: each file's bytes covered once, in
// order; each mode's shape; a split's hosts few and distinct.
func FuzzPlan(f *testing.F) {
	f.Add([]byte{3, 0, 5, 1, 9, 2}, uint8(2), int64(4))
	f.Add([]byte{0, 0, 0}, uint8(1), int64(1))
	f.Add([]byte{200, 7, 13, 1, 1, 1, 60, 3}, uint8(3), int64(100))
	f.Fuzz(func(t *testing.T, spec []byte, kind uint8, n int64) {
		listing := fuzzListing(spec)
		mode := []Mode{{Kind: PerFile}, {Kind: PerBlock}, {Kind: PerFiles, N: n}, {Kind: PerBytes, N: n}}[kind%4]
		got, err := Plan(listing, mode, 1000)
		if err != nil {
			// At most 64 files: only blocks (of 1 byte, say) pass the limit.
			if mode.Check() == nil && (mode.Kind == PerFile || mode.Kind == PerFiles || !strings.Contains(err.Error(), "more than the 1000 splits")) {
				t.Fatalf("%s of %+v: %v", mode, listing, err)
			}
			return
		}
		checkCoverage(t, listing, got)
		for _, s := range got {
			checkShape(t, mode, s, listing)
		}
	})
}

// fuzzListing makes files of spec's bytes, three a file: a length, a
// block size and a seed for its blocks' hosts (HDFS-like when odd).
func fuzzListing(spec []byte) []File {
	var files []File
	for i := 0; i+2 < len(spec) && len(files) < 64; i += 3 {
		f := File{Path: fmt.Sprintf("/f%02d", len(files)), Length: int64(spec[i]), BlockSize: int64(spec[i+1] % 32)}
		if spec[i+2]%2 == 1 {
			cut := f // its blocks by BlockSize, to give hosts
			f.Blocks = []Block{}
			for b := range cut.blocks() {
				b.Hosts = []string{fmt.Sprintf("h%d", (int(spec[i+2])+int(b.Offset))%5), fmt.Sprintf("h%d", (int(spec[i+2])+int(b.Offset)+1)%5)}
				f.Blocks = append(f.Blocks, b)
			}
		}
		files = append(files, f)
	}
	return files
}

// checkCoverage holds that the splits, in order, cover every file from 0
// to its length, once, piece after piece.
func checkCoverage(t *testing.T, listing []File, got []Split) {
	t.Helper()
	at := map[string]int64{}
	seen := map[string]bool{}
	for _, s := range got {
		for _, p := range s.Pieces {
			if p.Offset != at[p.Path] || (seen[p.Path] && p.Length == 0) {
				t.Fatalf("piece %+v: want offset %d", p, at[p.Path])
			}
			seen[p.Path] = true
			at[p.Path] += p.Length
		}
	}
	for _, f := range listing {
		if !seen[f.Path] || at[f.Path] != f.Length {
			t.Fatalf("%s: covered %d of %d bytes (seen %v)", f.Path, at[f.Path], f.Length, seen[f.Path])
		}
	}
}

// checkShape holds a split to its mode.
func checkShape(t *testing.T, mode Mode, s Split, listing []File) {
	t.Helper()
	if len(s.Pieces) == 0 || len(s.Hosts) > MaxHosts {
		t.Fatalf("split %+v: no pieces, or too many hosts", s)
	}
	hosts := map[string]bool{}
	for _, h := range s.Hosts {
		if hosts[h] {
			t.Fatalf("split %+v: host %s twice", s, h)
		}
		hosts[h] = true
	}
	var bytes, biggest int64
	for _, p := range s.Pieces {
		bytes += p.Length
		biggest = max(biggest, p.Length)
	}
	switch mode.Kind {
	case PerFile:
		if len(s.Pieces) != 1 || !s.WholeFile {
			t.Fatalf("file: split %+v", s)
		}
	case PerFiles:
		if int64(len(s.Pieces)) > mode.N {
			t.Fatalf("{files: %d}: split %+v", mode.N, s)
		}
	case PerBlock:
		if len(s.Pieces) != 1 {
			t.Fatalf("block: split %+v", s)
		}
	case PerBytes:
		if bytes > mode.N && len(s.Pieces) > 1 && s.Pieces[0].Length <= mode.N {
			t.Fatalf("{bytes: %d}: split %+v of %d bytes", mode.N, s, bytes)
		}
	}
}
