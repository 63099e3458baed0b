package splits

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// hdfsFile is a file of blocks of size bs, block i held by hosts[i].
func hdfsFile(path string, length, bs int64, hosts ...[]string) File {
	f := File{Path: path, Length: length, BlockSize: bs, Blocks: []Block{}}
	for i, at := 0, int64(0); at < length; i, at = i+1, at+bs {
		f.Blocks = append(f.Blocks, Block{Offset: at, Length: min(bs, length-at), Hosts: hosts[i]})
	}
	return f
}

func h(hosts ...string) []string { return hosts }

func TestPlanPerFileIsOneWholeFileASplitInPathOrder(t *testing.T) {
	listing := []File{
		hdfsFile("hdfs://nn/d/b", 250, 100, h("n1", "n2"), h("n2", "n3"), h("n3")),
		hdfsFile("hdfs://nn/d/a", 0, 100),
	}
	got, err := Plan(listing, Mode{Kind: PerFile}, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []Split{
		{Pieces: []Piece{{Path: "hdfs://nn/d/a"}}, WholeFile: true},
		// n2 holds 200 bytes, n3 150, n1 100.
		{Pieces: []Piece{{Path: "hdfs://nn/d/b", Length: 250}}, Hosts: h("n2", "n3", "n1"), WholeFile: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestPlanPerBlockGivesEachBlockItsHosts(t *testing.T) {
	listing := []File{
		hdfsFile("/b", 250, 100, h("n1", "n2"), h("n3", "n2"), h("n4")),
		{Path: "/a", Length: 0},
		{Path: "/local", Length: 10, BlockSize: 4},
	}
	got, err := Plan(listing, Mode{Kind: PerBlock}, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []Split{
		{Pieces: []Piece{{Path: "/a"}}, WholeFile: true},
		{Pieces: []Piece{{Path: "/b", Length: 100}}, Hosts: h("n1", "n2")},
		{Pieces: []Piece{{Path: "/b", Offset: 100, Length: 100}}, Hosts: h("n2", "n3")},
		{Pieces: []Piece{{Path: "/b", Offset: 200, Length: 50}}, Hosts: h("n4")},
		{Pieces: []Piece{{Path: "/local", Length: 4}}},
		{Pieces: []Piece{{Path: "/local", Offset: 4, Length: 4}}},
		{Pieces: []Piece{{Path: "/local", Offset: 8, Length: 2}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestPlanPerFilesPacksNFilesASplit(t *testing.T) {
	listing := []File{
		hdfsFile("/c", 10, 100, h("n2")),
		hdfsFile("/a", 10, 100, h("n1")),
		hdfsFile("/b", 30, 100, h("n2")),
	}
	got, err := Plan(listing, Mode{Kind: PerFiles, N: 2}, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []Split{
		{Pieces: []Piece{{Path: "/a", Length: 10}, {Path: "/b", Length: 30}}, Hosts: h("n2", "n1")},
		{Pieces: []Piece{{Path: "/c", Length: 10}}, Hosts: h("n2"), WholeFile: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestPlanPerBytesPacksSmallFilesAndCutsLargeOnesAtBlocks(t *testing.T) {
	listing := []File{
		{Path: "/1", Length: 30},
		{Path: "/2", Length: 60},
		{Path: "/3", Length: 20},                 // does not fit beside /1 and /2
		{Path: "/4", Length: 250, BlockSize: 50}, // cut into runs of 2 blocks
		{Path: "/5", Length: 0},
		{Path: "/6", Length: 40},
	}
	got, err := Plan(listing, Mode{Kind: PerBytes, N: 100}, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []Split{
		{Pieces: []Piece{{Path: "/1", Length: 30}, {Path: "/2", Length: 60}}},
		{Pieces: []Piece{{Path: "/3", Length: 20}}, WholeFile: true},
		{Pieces: []Piece{{Path: "/4", Length: 100}}},
		{Pieces: []Piece{{Path: "/4", Offset: 100, Length: 100}}},
		// the last run stays open for the files after it
		{Pieces: []Piece{{Path: "/4", Offset: 200, Length: 50}, {Path: "/5"}, {Path: "/6", Length: 40}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestPlanPerBytesGivesABlockLargerThanTheSizeASplit(t *testing.T) {
	listing := []File{hdfsFile("/big", 300, 150, h("n1"), h("n2"))}
	got, err := Plan(listing, Mode{Kind: PerBytes, N: 100}, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []Split{
		{Pieces: []Piece{{Path: "/big", Length: 150}}, Hosts: h("n1")},
		{Pieces: []Piece{{Path: "/big", Offset: 150, Length: 150}}, Hosts: h("n2")},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestPlanIsTheSameForAnyListingOrder(t *testing.T) {
	a := []File{{Path: "/x", Length: 5}, {Path: "/y", Length: 7}, {Path: "/z", Length: 1}}
	b := []File{a[2], a[0], a[1]}
	for _, m := range []Mode{{Kind: PerFile}, {Kind: PerBlock}, {Kind: PerFiles, N: 2}, {Kind: PerBytes, N: 6}} {
		x, err1 := Plan(a, m, 10)
		y, err2 := Plan(b, m, 10)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(x, y) {
			t.Errorf("%s: %+v (%v) and %+v (%v)", m, x, err1, y, err2)
		}
	}
}

func TestPlanRefusesBeforeMakingMoreThanTheLimit(t *testing.T) {
	huge := []File{{Path: "/huge", Length: 1 << 40, BlockSize: 1 << 20}} // 1Mi blocks
	_, err := Plan(huge, Mode{Kind: PerBlock}, 1000)
	if err == nil || !strings.Contains(err.Error(), "more than the 1000 splits") {
		t.Errorf("got %v, want the limit named", err)
	}
	absurd := []File{{Path: "/absurd", Length: 1 << 62, BlockSize: 1}}
	for _, m := range []Mode{{Kind: PerBlock}, {Kind: PerBytes, N: 1 << 62}} {
		_, err = Plan(absurd, m, 1000)
		if err == nil || !strings.Contains(err.Error(), "/absurd") {
			t.Errorf("%s: got %v, want the file named", m, err)
		}
	}
	many := make([]File, 2000)
	for i := range many {
		many[i] = File{Path: fmt.Sprintf("/f%d", i), Length: 1}
	}
	for _, m := range []Mode{{Kind: PerFile}, {Kind: PerFiles, N: 1}, {Kind: PerBytes, N: 1}, {Kind: PerBlock}} {
		if _, err := Plan(many, m, 1000); err == nil || !strings.Contains(err.Error(), "more than the 1000 splits") {
			t.Errorf("2000 files %s, limit 1000: got %v", m, err)
		}
	}
	if got, err := Plan(many, Mode{Kind: PerFiles, N: 2}, 1000); err != nil || len(got) != 1000 {
		t.Errorf("2000 files {files: 2}, limit 1000: %d splits, %v", len(got), err)
	}
}

func TestPlanRefusesBadListings(t *testing.T) {
	for name, listing := range map[string][]File{
		"twice":    {{Path: "/a"}, {Path: "/a"}},
		"negative": {{Path: "/a", Length: -1}},
		"gap":      {{Path: "/a", Length: 10, Blocks: []Block{{Offset: 0, Length: 4}, {Offset: 5, Length: 5}}}},
		"short":    {{Path: "/a", Length: 10, Blocks: []Block{{Offset: 0, Length: 4}}}},
		"no path":  {{Length: 1}},
	} {
		if _, err := Plan(listing, Mode{}, 10); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestModeCheck(t *testing.T) {
	for _, m := range []Mode{{Kind: PerFiles}, {Kind: PerBytes, N: -1}, {Kind: PerFile, N: 3}, {Kind: "lines"}} {
		if m.Check() == nil {
			t.Errorf("%+v: no error", m)
		}
	}
	if s := (Mode{Kind: PerBytes, N: 64}).String(); s != "{bytes: 64}" {
		t.Errorf("String: %s", s)
	}
}

// BenchmarkPlan100k cuts a listing of 100,000 HDFS files of two blocks
// each, three hosts a block, by bytes: the most work a split mode does.
func BenchmarkPlan100k(b *testing.B) {
	listing := make([]File, 100_000)
	for i := range listing {
		hosts := func(k int) []string {
			return []string{"dn" + string(rune('a'+k%26)), "dn" + string(rune('a'+(k+1)%26)), "dn" + string(rune('a'+(k+2)%26))}
		}
		listing[i] = File{Path: fmt.Sprintf("/data/part-%06d", i), Length: 200 << 20, BlockSize: 128 << 20,
			Blocks: []Block{{Length: 128 << 20, Hosts: hosts(i)}, {Offset: 128 << 20, Length: 72 << 20, Hosts: hosts(i + 7)}}}
	}
	for b.Loop() {
		if _, err := Plan(listing, Mode{Kind: PerBytes, N: 1 << 30}, 1_000_000); err != nil {
			b.Fatal(err)
		}
	}
}

func TestPlanPerBytesKeepsAnEmptyFileAfterAFullSplit(t *testing.T) {
	listing := []File{{Path: "/a", Length: 48, BlockSize: 16}, {Path: "/b"}}
	got, err := Plan(listing, Mode{Kind: PerBytes, N: 4}, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []Split{
		{Pieces: []Piece{{Path: "/a", Length: 16}}},
		{Pieces: []Piece{{Path: "/a", Offset: 16, Length: 16}}},
		{Pieces: []Piece{{Path: "/a", Offset: 32, Length: 16}, {Path: "/b"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}
