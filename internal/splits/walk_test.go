package splits

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"testing/fstest"
)

// A filesystem whose FileInfo.Sys() is its blocks, as an HDFS adapter's
// is to be, lists them, and Plan gives each split its hosts.
func TestListFSTakesBlocksFromSys(t *testing.T) {
	blocks := []Block{{Length: 4, Hosts: []string{"dn1", "dn2"}}, {Offset: 4, Length: 2, Hosts: []string{"dn3"}}}
	fsys := fstest.MapFS{
		"data/a":        {Data: []byte("abcdef"), Sys: blocks},
		"data/b":        {Data: []byte("xy")},
		"data/_SUCCESS": {},
	}
	show := func(p string) string { return "hdfs://nn/" + p }
	files, err := ListFS(context.Background(), fsys, "data/*", show, 10, 128)
	if err != nil {
		t.Fatal(err)
	}
	want := []File{
		{Path: "hdfs://nn/data/a", Length: 6, BlockSize: 128, Blocks: blocks},
		{Path: "hdfs://nn/data/b", Length: 2, BlockSize: 128},
	}
	if !reflect.DeepEqual(files, want) {
		t.Fatalf("listed %+v, want %+v", files, want)
	}
	got, err := Plan(files, Mode{Kind: PerBlock}, 10)
	if err != nil || len(got) != 3 || !reflect.DeepEqual(got[1].Hosts, []string{"dn3"}) {
		t.Errorf("split %+v, %v", got, err)
	}
	if _, err := ListFS(context.Background(), fsys, "data/*.csv", show, 10, 128); !errors.Is(err, ErrNoMatch) || err.Error() != "hdfs://nn/data/*.csv: matched no file" {
		t.Errorf("no match: %v", err)
	}
}
