package namenode

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoophdfs"
)

// The calls of this file work on the NameNode's namespace alone: they make
// directories and empty files, list and rename them, and reach no
// DataNode, which a client holding only a delegation token could not
// write to (block tokens, SASL data transfer protection).

// Mkdirs makes dir, and any parents missing, with mode perm (as given:
// no umask is applied).
func (c *Client) Mkdirs(ctx context.Context, dir string, perm fs.FileMode) error {
	resp := &hadoophdfs.MkdirsResponseProto{}
	req := &hadoophdfs.MkdirsRequestProto{Src: proto.String(dir), Masked: permission(perm), CreateParent: proto.Bool(true)}
	if err := c.c.Call(ctx, "mkdirs", req, resp); err != nil {
		return err
	}
	if !resp.GetResult() {
		return fmt.Errorf("the NameNode did not make %s", dir)
	}
	return nil
}

// NewFile says how Create makes a file: its mode (as given: no umask is
// applied), the replication and block size the NameNode records for it,
// and the client name it is leased to until Complete.
type NewFile struct {
	Perm        fs.FileMode
	Replication int
	BlockSize   int64
	Client      string
	// Overwrite replaces a file of the same name, as O_TRUNC does;
	// without it one there is an error (fs.ErrExist).
	Overwrite bool
}

// Create makes path an empty file, open for writing by f.Client until
// Complete, in a directory that must exist, and returns its inode id.
func (c *Client) Create(ctx context.Context, path string, f NewFile) (uint64, error) {
	flags := hadoophdfs.CreateFlagProto_CREATE
	if f.Overwrite {
		flags |= hadoophdfs.CreateFlagProto_OVERWRITE
	}
	req := &hadoophdfs.CreateRequestProto{
		Src: proto.String(path), Masked: permission(f.Perm), ClientName: proto.String(f.Client),
		CreateFlag: proto.Uint32(uint32(flags)), CreateParent: proto.Bool(false),
		Replication: proto.Uint32(uint32(f.Replication)), BlockSize: proto.Uint64(uint64(f.BlockSize)),
	}
	resp := &hadoophdfs.CreateResponseProto{}
	if err := c.c.Call(ctx, "create", req, resp); err != nil {
		return 0, err
	}
	return resp.GetFs().GetFileId(), nil
}

// Complete closes a file Create made, which has no block: client gives up
// its lease, and the file is whole.
func (c *Client) Complete(ctx context.Context, path, client string, fileID uint64) error {
	resp := &hadoophdfs.CompleteResponseProto{}
	req := &hadoophdfs.CompleteRequestProto{Src: proto.String(path), ClientName: proto.String(client), FileId: proto.Uint64(fileID)}
	if err := c.c.Call(ctx, "complete", req, resp); err != nil {
		return err
	}
	if !resp.GetResult() {
		return fmt.Errorf("the NameNode did not complete %s", path)
	}
	return nil
}

// Rename renames src to dst at once (rename2), replacing a file dst
// when overwrite: a reader sees one or the other, never neither.
func (c *Client) Rename(ctx context.Context, src, dst string, overwrite bool) error {
	req := &hadoophdfs.Rename2RequestProto{Src: proto.String(src), Dst: proto.String(dst), OverwriteDest: proto.Bool(overwrite)}
	return c.c.Call(ctx, "rename2", req, &hadoophdfs.Rename2ResponseProto{})
}

// ReadDir names the entries of dir, in the NameNode's order, asking
// for them a page (dfs.ls.limit) at a time. A missing dir is an error
// that is fs.ErrNotExist.
func (c *Client) ReadDir(ctx context.Context, dir string) ([]string, error) {
	var names []string
	after := []byte{}
	for {
		resp := &hadoophdfs.GetListingResponseProto{}
		req := &hadoophdfs.GetListingRequestProto{Src: proto.String(dir), StartAfter: after, NeedLocation: proto.Bool(false)}
		if err := c.c.Call(ctx, "getListing", req, resp); err != nil {
			return nil, err
		}
		if resp.DirList == nil {
			return nil, fmt.Errorf("listing %s: %w", dir, fs.ErrNotExist)
		}
		page := resp.DirList.GetPartialListing()
		for _, st := range page {
			names = append(names, string(st.GetPath()))
		}
		if resp.DirList.GetRemainingEntries() == 0 {
			return names, nil
		}
		if len(page) == 0 {
			return nil, errors.New("listing " + dir + ": the NameNode said more entries remain, and sent none")
		}
		after = page[len(page)-1].GetPath()
	}
}

func permission(perm fs.FileMode) *hadoophdfs.FsPermissionProto {
	return &hadoophdfs.FsPermissionProto{Perm: proto.Uint32(uint32(perm.Perm()))}
}
