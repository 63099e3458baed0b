package splits

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestSplitFileRoundTrips(t *testing.T) {
	pieces := []Piece{
		{Path: "hdfs://nn:8020/data/part 0,a", Offset: 0, Length: 134217728},
		{Path: "/local/b", Offset: 5, Length: 0},
	}
	var b bytes.Buffer
	if err := WritePieces(&b, pieces); err != nil {
		t.Fatal(err)
	}
	if want := "hdfs://nn:8020/data/part 0,a\t0\t134217728\n/local/b\t5\t0\n"; b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
	got, err := ParsePieces(b.Bytes())
	if err != nil || !reflect.DeepEqual(got, pieces) {
		t.Errorf("read back %+v, %v", got, err)
	}
}

func TestWritePiecesRefusesWhatItCannotCarry(t *testing.T) {
	for _, p := range []Piece{{Path: "a\tb"}, {Path: "a\nb"}, {Path: ""}, {Path: "/a", Offset: -1}, {Path: "/a", Offset: maxInt64, Length: 1}} {
		if err := WritePieces(&bytes.Buffer{}, []Piece{p}); err == nil {
			t.Errorf("%+v: no error", p)
		}
	}
}

func TestParsePiecesNamesTheLine(t *testing.T) {
	for in, want := range map[string]string{
		"/a\t0\t1\n/b\t0\n":            "line 2: 2 tab-separated fields",
		"/a\t01\t1\n":                  `line 1: offset: "01"`,
		"/a\t0\t+1\n":                  `line 1: length: "+1"`,
		"/a\t0\t1":                     "does not end in a newline",
		"\t0\t1\n":                     "line 1: a piece with no path",
		"/a\t1\t9223372036854775807\n": "out of range",
	} {
		_, err := ParsePieces([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", in, err, want)
		}
	}
	if got, err := ParsePieces(nil); err != nil || got != nil {
		t.Errorf("empty file: %v, %v", got, err)
	}
}

// FuzzParsePieces checks that no input panics ParsePieces, and that what
// it accepts is exactly what WritePieces writes for the pieces read.
func FuzzParsePieces(f *testing.F) {
	f.Add([]byte("/a\t0\t1\n"))
	f.Add([]byte("hdfs://nn/x y\t134217728\t42\n/b\t0\t0\n"))
	f.Add([]byte("/a\t0\t1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		pieces, err := ParsePieces(data)
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := WritePieces(&b, pieces); err != nil {
			t.Fatalf("read %q as %+v, which does not write: %v", data, pieces, err)
		}
		if !bytes.Equal(b.Bytes(), data) {
			t.Errorf("read %q, wrote back %q", data, b.Bytes())
		}
	})
}

func TestSplitPathIsOnlyForAWholeFile(t *testing.T) {
	whole := Split{Pieces: []Piece{{Path: "/a", Length: 3}}, WholeFile: true}
	part := Split{Pieces: []Piece{{Path: "/a", Offset: 3, Length: 3}}}
	if whole.Path() != "/a" || part.Path() != "" {
		t.Errorf("Path: %q for a whole file, %q for part of one", whole.Path(), part.Path())
	}
}
