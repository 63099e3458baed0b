package namenode

import (
	"context"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoophdfs"
)

// A path's extended attributes live in the NameNode's memory and its edit
// log, the name and value of each at most
// dfs.namenode.fs-limits.max-xattr-size bytes together and at most
// dfs.namenode.fs-limits.max-xattrs-per-inode of them to a path (the
// user-visible ones): Hadoop's defaults are these.
const (
	DefaultMaxXAttrSize     = 16384
	DefaultMaxXAttrsPerPath = 32
)

// SetXAttr sets the user-namespace attribute user.NAME of path to value,
// replacing one of that name. Its owner, or a user who may write it, may.
func (c *Client) SetXAttr(ctx context.Context, path, name string, value []byte) error {
	req := &hadoophdfs.SetXAttrRequestProto{
		Src:   proto.String(path),
		XAttr: &hadoophdfs.XAttrProto{Namespace: hadoophdfs.XAttrProto_USER.Enum(), Name: proto.String(name), Value: value},
		Flag:  proto.Uint32(uint32(hadoophdfs.XAttrSetFlagProto_XATTR_CREATE | hadoophdfs.XAttrSetFlagProto_XATTR_REPLACE)),
	}
	return c.c.Call(ctx, "setXAttr", req, &hadoophdfs.SetXAttrResponseProto{})
}

// XAttrs are path's user-namespace attributes, by name without the
// "user." prefix. A missing path is an error that is fs.ErrNotExist.
func (c *Client) XAttrs(ctx context.Context, path string) (map[string][]byte, error) {
	resp := &hadoophdfs.GetXAttrsResponseProto{}
	if err := c.c.Call(ctx, "getXAttrs", &hadoophdfs.GetXAttrsRequestProto{Src: proto.String(path)}, resp); err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, x := range resp.GetXAttrs() {
		if x.GetNamespace() == hadoophdfs.XAttrProto_USER {
			out[x.GetName()] = x.GetValue()
		}
	}
	return out, nil
}
