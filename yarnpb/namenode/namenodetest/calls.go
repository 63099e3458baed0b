package namenodetest

import (
	"fmt"
	"maps"
	"path"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoophdfs"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/namenode"
)

// srcRequest is a call's request: each names the path it works on.
type srcRequest interface {
	proto.Message
	GetSrc() string
}

// call is how the NameNode decodes and carries out one method.
type call struct {
	request func() srcRequest
	do      func(*NameNode, srcRequest) (proto.Message, error)
}

func serve[R srcRequest](newRequest func() R, do func(*NameNode, R) (proto.Message, error)) call {
	return call{
		request: func() srcRequest { return newRequest() },
		do:      func(n *NameNode, r srcRequest) (proto.Message, error) { return do(n, r.(R)) },
	}
}

// calls are the methods served, by name.
var calls = map[string]call{
	"mkdirs":     serve(func() *hadoophdfs.MkdirsRequestProto { return &hadoophdfs.MkdirsRequestProto{} }, (*NameNode).mkdirs),
	"create":     serve(func() *hadoophdfs.CreateRequestProto { return &hadoophdfs.CreateRequestProto{} }, (*NameNode).create),
	"complete":   serve(func() *hadoophdfs.CompleteRequestProto { return &hadoophdfs.CompleteRequestProto{} }, (*NameNode).complete),
	"rename2":    serve(func() *hadoophdfs.Rename2RequestProto { return &hadoophdfs.Rename2RequestProto{} }, (*NameNode).rename2),
	"getListing": serve(func() *hadoophdfs.GetListingRequestProto { return &hadoophdfs.GetListingRequestProto{} }, (*NameNode).getListing),
	"setXAttr":   serve(func() *hadoophdfs.SetXAttrRequestProto { return &hadoophdfs.SetXAttrRequestProto{} }, (*NameNode).setXAttr),
	"getXAttrs":  serve(func() *hadoophdfs.GetXAttrsRequestProto { return &hadoophdfs.GetXAttrsRequestProto{} }, (*NameNode).getXAttrs),
	"delete":     serve(func() *hadoophdfs.DeleteRequestProto { return &hadoophdfs.DeleteRequestProto{} }, (*NameNode).delete),
}

func (n *NameNode) mkdirs(r *hadoophdfs.MkdirsRequestProto) (proto.Message, error) {
	p := path.Clean(r.GetSrc())
	var made []string
	for q := p; ; q = path.Dir(q) {
		if f := n.nodes[q]; f != nil {
			if !f.dir {
				return nil, &ipc.RemoteError{Class: "org.apache.hadoop.fs.ParentNotDirectoryException", Message: q + " is not a directory"}
			}
			break
		}
		if len(made) > 0 && !r.GetCreateParent() {
			return nil, notFound(q)
		}
		made = append(made, q)
	}
	for _, q := range made {
		n.nodes[q] = &node{dir: true, id: n.newID(), xattrs: map[string][]byte{}}
	}
	return &hadoophdfs.MkdirsResponseProto{Result: proto.Bool(true)}, nil
}

func (n *NameNode) create(r *hadoophdfs.CreateRequestProto) (proto.Message, error) {
	p := path.Clean(r.GetSrc())
	if parent := n.nodes[path.Dir(p)]; parent == nil || !parent.dir {
		return nil, notFound(path.Dir(p))
	}
	if f := n.nodes[p]; f != nil {
		if f.dir || r.GetCreateFlag()&uint32(hadoophdfs.CreateFlagProto_OVERWRITE) == 0 {
			return nil, exists(p)
		}
		n.remove(p)
	}
	f := &node{id: n.newID(), holder: r.GetClientName(), xattrs: map[string][]byte{}}
	n.nodes[p] = f
	return &hadoophdfs.CreateResponseProto{Fs: &hadoophdfs.HdfsFileStatusProto{
		FileType: hadoophdfs.HdfsFileStatusProto_IS_FILE.Enum(), Path: []byte{}, Length: proto.Uint64(0), FileId: proto.Uint64(f.id)}}, nil
}

func (n *NameNode) complete(r *hadoophdfs.CompleteRequestProto) (proto.Message, error) {
	p := path.Clean(r.GetSrc())
	f := n.nodes[p]
	if f == nil || f.dir || r.GetFileId() != 0 && r.GetFileId() != f.id {
		return nil, notFound(p)
	}
	switch f.holder {
	case "": // a retry of a complete whose answer was lost
	case r.GetClientName():
		f.holder = ""
	default:
		return nil, &ipc.RemoteError{Class: "org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException",
			Message: fmt.Sprintf("Client (=%s) is not the lease owner (=%s) of %s", r.GetClientName(), f.holder, p)}
	}
	return &hadoophdfs.CompleteResponseProto{Result: proto.Bool(true)}, nil
}

func (n *NameNode) rename2(r *hadoophdfs.Rename2RequestProto) (proto.Message, error) {
	src, dst := path.Clean(r.GetSrc()), path.Clean(r.GetDst())
	from := n.nodes[src]
	if from == nil {
		return nil, notFound(src)
	}
	if parent := n.nodes[path.Dir(dst)]; parent == nil || !parent.dir {
		return nil, notFound(path.Dir(dst))
	}
	if to := n.nodes[dst]; to != nil {
		if !r.GetOverwriteDest() {
			return nil, exists(dst)
		}
		if to.dir != from.dir || to.dir && len(n.children(dst)) > 0 {
			return nil, &ipc.RemoteError{Class: "java.io.IOException", Message: "rename destination " + dst + " cannot be overwritten"}
		}
		n.remove(dst)
	}
	if strings.HasPrefix(dst, src+"/") {
		return nil, &ipc.RemoteError{Class: "java.io.IOException", Message: "rename " + src + " under itself"}
	}
	moved := map[string]*node{}
	for q, f := range n.nodes {
		if q == src || strings.HasPrefix(q, src+"/") {
			moved[dst+strings.TrimPrefix(q, src)] = f
			delete(n.nodes, q)
		}
	}
	maps.Copy(n.nodes, moved)
	return &hadoophdfs.Rename2ResponseProto{}, nil
}

func (n *NameNode) getListing(r *hadoophdfs.GetListingRequestProto) (proto.Message, error) {
	p := path.Clean(r.GetSrc())
	f := n.nodes[p]
	if f == nil {
		return &hadoophdfs.GetListingResponseProto{}, nil
	}
	if !f.dir {
		return &hadoophdfs.GetListingResponseProto{DirList: &hadoophdfs.DirectoryListingProto{
			PartialListing: []*hadoophdfs.HdfsFileStatusProto{status("", f)}, RemainingEntries: proto.Uint32(0)}}, nil
	}
	var after []string
	for _, name := range n.children(p) {
		if name > string(r.GetStartAfter()) {
			after = append(after, name)
		}
	}
	page := after[:min(len(after), n.limit(n.ListLimit, 1000))]
	list := &hadoophdfs.DirectoryListingProto{RemainingEntries: proto.Uint32(uint32(len(after) - len(page)))}
	for _, name := range page {
		list.PartialListing = append(list.PartialListing, status(name, n.nodes[path.Join(p, name)]))
	}
	return &hadoophdfs.GetListingResponseProto{DirList: list}, nil
}

func status(name string, f *node) *hadoophdfs.HdfsFileStatusProto {
	kind := hadoophdfs.HdfsFileStatusProto_IS_FILE
	if f.dir {
		kind = hadoophdfs.HdfsFileStatusProto_IS_DIR
	}
	return &hadoophdfs.HdfsFileStatusProto{FileType: kind.Enum(), Path: []byte(name), Length: proto.Uint64(0), FileId: proto.Uint64(f.id)}
}

func (n *NameNode) setXAttr(r *hadoophdfs.SetXAttrRequestProto) (proto.Message, error) {
	p := path.Clean(r.GetSrc())
	x := r.GetXAttr()
	if max := n.limit(n.MaxXAttrSize, namenode.DefaultMaxXAttrSize); len(x.GetName())+len(x.GetValue()) > max {
		return nil, &ipc.RemoteError{Class: "org.apache.hadoop.HadoopIllegalArgumentException", Message: fmt.Sprintf(
			"The XAttr is too big. The maximum combined size of the name and value is %d, but the total size is %d", max, len(x.GetName())+len(x.GetValue()))}
	}
	f := n.nodes[p]
	if f == nil {
		return nil, notFound(p)
	}
	if x.GetNamespace() != hadoophdfs.XAttrProto_USER {
		return nil, fmt.Errorf("namenodetest: only the user namespace's attributes, not %v", x.GetNamespace())
	}
	_, had := f.xattrs[x.GetName()]
	switch flag := r.GetFlag(); {
	case had && flag&uint32(hadoophdfs.XAttrSetFlagProto_XATTR_REPLACE) == 0:
		return nil, fmt.Errorf("XAttr: %s already exists. The REPLACE flag must be specified", x.GetName())
	case !had && flag&uint32(hadoophdfs.XAttrSetFlagProto_XATTR_CREATE) == 0:
		return nil, fmt.Errorf("XAttr: %s does not exist. The CREATE flag must be specified", x.GetName())
	}
	if max := n.limit(n.MaxXAttrsPerPath, namenode.DefaultMaxXAttrsPerPath); !had && len(f.xattrs) >= max {
		return nil, fmt.Errorf("Cannot add additional XAttr to inode, would exceed limit of %d", max)
	}
	f.xattrs[x.GetName()] = x.GetValue()
	return &hadoophdfs.SetXAttrResponseProto{}, nil
}

// getXAttrs answers with every attribute, in the map's (random) order:
// the NameNode promises none.
func (n *NameNode) getXAttrs(r *hadoophdfs.GetXAttrsRequestProto) (proto.Message, error) {
	p := path.Clean(r.GetSrc())
	f := n.nodes[p]
	if f == nil {
		return nil, notFound(p)
	}
	resp := &hadoophdfs.GetXAttrsResponseProto{}
	for name, v := range f.xattrs {
		resp.XAttrs = append(resp.XAttrs, &hadoophdfs.XAttrProto{Namespace: hadoophdfs.XAttrProto_USER.Enum(), Name: proto.String(name), Value: v})
	}
	return resp, nil
}

func (n *NameNode) delete(r *hadoophdfs.DeleteRequestProto) (proto.Message, error) {
	p := path.Clean(r.GetSrc())
	f := n.nodes[p]
	if f == nil {
		return &hadoophdfs.DeleteResponseProto{Result: proto.Bool(false)}, nil
	}
	if f.dir && !r.GetRecursive() && len(n.children(p)) > 0 {
		return nil, &ipc.RemoteError{Class: "org.apache.hadoop.fs.PathIsNotEmptyDirectoryException", Message: p + " is non empty"}
	}
	n.remove(p)
	return &hadoophdfs.DeleteResponseProto{Result: proto.Bool(true)}, nil
}
