package namenodetest

import (
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/ipc/ipctest"
	"github.com/spindle-yarn/spindle/yarnpb/namenode"
)

// NameNode is an in-memory NameNode. Its zero value has only "/", and
// the NameNode's default limits.
type NameNode struct {
	// MaxXAttrSize and MaxXAttrsPerPath are
	// dfs.namenode.fs-limits.max-xattr-size and max-xattrs-per-inode;
	// ListLimit is dfs.ls.limit. Zero means Hadoop's default.
	MaxXAttrSize, MaxXAttrsPerPath, ListLimit int
	// Fail, when set, is asked before each call is carried out (under
	// the NameNode's lock): an error it returns, a *ipc.RemoteError or
	// any other (an IOException), is the call's answer.
	Fail func(method, path string) error

	mu     sync.Mutex
	nodes  map[string]*node // by absolute clean path
	nextID uint64
	calls  []string
}

// node is a directory or an empty file.
type node struct {
	dir bool
	id  uint64
	// holder is the client a file is leased to until it completes it.
	holder string
	xattrs map[string][]byte // the user namespace's
}

// Start serves the NameNode on a loopback port until the test ends, and
// returns its address.
func (n *NameNode) Start(t testing.TB) string {
	srv := &ipctest.Server{Protocol: namenode.Protocol, Handler: n.handle}
	return srv.Start(t)
}

// Calls lists the methods called so far, in order.
func (n *NameNode) Calls() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.calls)
}

// Paths lists every path but "/", sorted.
func (n *NameNode) Paths() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for p := range n.nodes {
		if p != "/" {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// File tells whether p is a file, and whether it is still leased (open
// for writing).
func (n *NameNode) File(p string) (exists, open bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	f := n.nodes[p]
	return f != nil && !f.dir, f != nil && f.holder != ""
}

// XAttrs are p's user-namespace attributes (nil for no such path).
func (n *NameNode) XAttrs(p string) map[string][]byte {
	n.mu.Lock()
	defer n.mu.Unlock()
	if f := n.nodes[p]; f != nil {
		return maps.Clone(f.xattrs)
	}
	return nil
}

// SetXAttr sets p's attribute user.name as another client would.
func (n *NameNode) SetXAttr(p, name string, value []byte) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.nodes[p].xattrs[name] = value
}

// handle decodes a call and carries it out under the lock.
func (n *NameNode) handle(method string, body []byte) (proto.Message, error) {
	call, ok := calls[method]
	if !ok {
		return nil, &ipc.RemoteError{Class: "org.apache.hadoop.ipc.RpcNoSuchMethodException", Message: "Unknown method " + method}
	}
	req := call.request()
	if err := proto.Unmarshal(body, req); err != nil {
		return nil, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.nodes == nil {
		n.nodes = map[string]*node{"/": {dir: true}}
	}
	n.calls = append(n.calls, method)
	if n.Fail != nil {
		if err := n.Fail(method, req.GetSrc()); err != nil {
			return nil, err
		}
	}
	return call.do(n, req)
}

// children are the names of the entries in dir, sorted as the NameNode
// sorts them (by their bytes).
func (n *NameNode) children(dir string) []string {
	var out []string
	for p := range n.nodes {
		if p != "/" && path.Dir(p) == dir {
			out = append(out, path.Base(p))
		}
	}
	slices.Sort(out)
	return out
}

// remove removes p and everything under it.
func (n *NameNode) remove(p string) {
	for q := range n.nodes {
		if q == p || strings.HasPrefix(q, p+"/") {
			delete(n.nodes, q)
		}
	}
}

func (n *NameNode) newID() uint64 {
	n.nextID++
	return 16384 + n.nextID // INodeId.ROOT_INODE_ID is 16385
}

func (n *NameNode) limit(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

func notFound(p string) error {
	return &ipc.RemoteError{Class: "java.io.FileNotFoundException", Message: "File does not exist: " + p}
}

func exists(p string) error {
	return &ipc.RemoteError{Class: "org.apache.hadoop.fs.FileAlreadyExistsException", Message: p + " already exists"}
}
