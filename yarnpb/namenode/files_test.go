package namenode_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"slices"
	"testing"

	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/namenode"
	"github.com/spindle-yarn/spindle/yarnpb/namenode/namenodetest"
)

func dial(t *testing.T, nn *namenodetest.NameNode) *namenode.Client {
	t.Helper()
	c, err := namenode.New([]string{nn.Start(t)}, ipc.Options{Auth: ipc.Auth{User: "alice"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// An empty file is made, given attributes, completed and renamed with
// the NameNode alone, and reads back as it was written.
func TestAnEmptyFileCarriesItsAttributesThroughARename(t *testing.T) {
	ctx := context.Background()
	nn := &namenodetest.NameNode{}
	c := dial(t, nn)
	if err := c.Mkdirs(ctx, "/user/alice/j", 0o700); err != nil {
		t.Fatal(err)
	}
	f := namenode.NewFile{Perm: 0o600, Replication: 1, BlockSize: 1 << 20, Client: "test-client"}
	id, err := c.Create(ctx, "/user/alice/j/.x.tmp", f)
	if err != nil || id == 0 {
		t.Fatalf("Create = %d, %v", id, err)
	}
	if _, open := nn.File("/user/alice/j/.x.tmp"); !open {
		t.Error("a created file is not leased to its creator")
	}
	if err := c.SetXAttr(ctx, "/user/alice/j/.x.tmp", "spindle.a", []byte("value")); err != nil {
		t.Fatal(err)
	}
	if err := c.Complete(ctx, "/user/alice/j/.x.tmp", f.Client, id); err != nil {
		t.Fatal(err)
	}
	if err := c.Rename(ctx, "/user/alice/j/.x.tmp", "/user/alice/j/x", true); err != nil {
		t.Fatal(err)
	}
	if got := nn.Paths(); !slices.Equal(got, []string{"/user", "/user/alice", "/user/alice/j", "/user/alice/j/x"}) {
		t.Errorf("paths %v", got)
	}
	if exists, open := nn.File("/user/alice/j/x"); !exists || open {
		t.Errorf("the renamed file: exists %v, open %v; want a completed file", exists, open)
	}
	x, err := c.XAttrs(ctx, "/user/alice/j/x")
	if err != nil || len(x) != 1 || !bytes.Equal(x["spindle.a"], []byte("value")) {
		t.Errorf("XAttrs = %q, %v", x, err)
	}
	if _, err := c.XAttrs(ctx, "/user/alice/j/.x.tmp"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("XAttrs of the old name: %v, want fs.ErrNotExist", err)
	}
	if gone, err := c.Delete(ctx, "/user/alice/j/x", false); !gone || err != nil {
		t.Errorf("Delete = %v, %v", gone, err)
	}
}

// Create replaces a file only when told to overwrite; the new one has
// none of the old one's attributes.
func TestCreateOverwritesOnlyWhenTold(t *testing.T) {
	ctx := context.Background()
	nn := &namenodetest.NameNode{}
	c := dial(t, nn)
	f := namenode.NewFile{Perm: 0o600, Replication: 1, BlockSize: 1 << 20, Client: "c"}
	if _, err := c.Create(ctx, "/f", f); err != nil {
		t.Fatal(err)
	}
	if err := c.SetXAttr(ctx, "/f", "old", []byte("1")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Create(ctx, "/f", f); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Create over a file without overwrite: %v, want fs.ErrExist", err)
	}
	f.Overwrite = true
	if _, err := c.Create(ctx, "/f", f); err != nil {
		t.Fatal(err)
	}
	if x := nn.XAttrs("/f"); len(x) != 0 {
		t.Errorf("the overwritten file kept attributes %q", x)
	}
	if _, err := c.Create(ctx, "/no/such/dir/f", f); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Create in a missing directory: %v, want fs.ErrNotExist", err)
	}
}

// ReadDir gathers a directory's pages; a missing directory is
// fs.ErrNotExist.
func TestReadDirGathersEveryPage(t *testing.T) {
	ctx := context.Background()
	nn := &namenodetest.NameNode{ListLimit: 2}
	c := dial(t, nn)
	f := namenode.NewFile{Perm: 0o600, Replication: 1, BlockSize: 1 << 20, Client: "c"}
	want := []string{"a", "b", "c", "d", "e"}
	for _, name := range want {
		if _, err := c.Create(ctx, "/"+name, f); err != nil {
			t.Fatal(err)
		}
	}
	got, err := c.ReadDir(ctx, "/")
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("ReadDir = %v, %v; want %v", got, err, want)
	}
	if n := len(slices.DeleteFunc(nn.Calls(), func(m string) bool { return m != "getListing" })); n != 3 {
		t.Errorf("%d getListing calls for 5 entries in pages of 2; want 3", n)
	}
	if _, err := c.ReadDir(ctx, "/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadDir of a missing directory: %v, want fs.ErrNotExist", err)
	}
}

// The NameNode's limits on attributes come back as errors.
func TestSetXAttrOverTheNameNodesLimitsFails(t *testing.T) {
	ctx := context.Background()
	nn := &namenodetest.NameNode{MaxXAttrSize: 10, MaxXAttrsPerPath: 2}
	c := dial(t, nn)
	if _, err := c.Create(ctx, "/f", namenode.NewFile{Perm: 0o600, Replication: 1, BlockSize: 1 << 20, Client: "c"}); err != nil {
		t.Fatal(err)
	}
	if err := c.SetXAttr(ctx, "/f", "abcde", []byte("123456")); err == nil {
		t.Error("an attribute of 11 bytes was set under a limit of 10")
	}
	for _, name := range []string{"a", "b"} {
		if err := c.SetXAttr(ctx, "/f", name, []byte("1")); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.SetXAttr(ctx, "/f", "c", []byte("1")); err == nil {
		t.Error("a third attribute was set under a limit of 2")
	}
	if err := c.SetXAttr(ctx, "/f", "a", []byte("2")); err != nil {
		t.Errorf("replacing an attribute at the limit: %v", err)
	}
}
