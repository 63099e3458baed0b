package staging

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/spindle-yarn/spindle/am/journal"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/namenode"
)

// XAttrSegments keeps files written whole in dir with the NameNode alone:
// the journal of an ApplicationMaster on a Kerberos cluster that holds
// only delegation tokens, which reach the NameNode (DIGEST-MD5, over
// yarnpb/namenode) but no DataNode. A segment is an empty file whose
// user-namespace extended attributes carry its bytes in order,
//
//	user.spindle.segment.0-of-3, user.spindle.segment.1-of-3, ...
//
// made under a temporary name, given its attributes, completed and
// renamed once whole (at once, at the NameNode): a reader sees all of it
// or nothing. The NameNode keeps attributes in its memory and its edit
// log, within its limits (dfs.namenode.fs-limits.max-xattr-size bytes for
// a name and value, max-xattrs-per-inode of them to a file): a segment
// holds at most SegmentLimit bytes, about 512 KB by default, and the
// journal's writer writes none longer (docs/reliability.md).
type XAttrSegments struct {
	nn   *namenode.Client
	dir  string
	file namenode.NewFile
	// chunk is the most bytes one attribute's value holds, count the
	// most attributes a segment has.
	chunk, count int
	// made says dir was made by an earlier Write.
	made bool
}

// segmentAttr begins the names of a segment's attributes.
const segmentAttr = "spindle.segment."

var _ journal.Limited = (*XAttrSegments)(nil)

// NewXAttrSegments is the segment store in dir, an absolute clean path,
// on the NameNode nn. conf (hdfs-site.xml, which should agree with the
// NameNode's) gives the limits on attributes, and the replication and
// block size the NameNode records for a file, though an empty one uses
// neither.
func NewXAttrSegments(nn *namenode.Client, conf *hadoopconf.Conf, dir string) (*XAttrSegments, error) {
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	size, err := conf.GetInt("dfs.namenode.fs-limits.max-xattr-size", namenode.DefaultMaxXAttrSize)
	if err != nil {
		return nil, fmt.Errorf("staging: %w", err)
	}
	count, err := conf.GetInt("dfs.namenode.fs-limits.max-xattrs-per-inode", namenode.DefaultMaxXAttrsPerPath)
	if err != nil {
		return nil, fmt.Errorf("staging: %w", err)
	}
	chunk := size - len(chunkName(count-1, count))
	if count < 1 || chunk < 1 {
		return nil, fmt.Errorf("staging: a NameNode's attributes of %d bytes, %d to a file, hold no journal", size, count)
	}
	replication, err := conf.GetInt("dfs.replication", defaultReplication)
	if err != nil {
		return nil, fmt.Errorf("staging: %w", err)
	}
	blockSize, err := blockSize(conf)
	if err != nil {
		return nil, err
	}
	// The NameNode leases a file to the client that creates it until it
	// completes it: a name of this process's own.
	id := make([]byte, 8)
	rand.Read(id)
	file := namenode.NewFile{Perm: 0o600, Replication: replication, BlockSize: blockSize, Client: "spindle_" + hex.EncodeToString(id), Overwrite: true}
	return &XAttrSegments{nn: nn, dir: dir, file: file, chunk: chunk, count: count}, nil
}

// chunkName is the name (without "user.") of attribute i of a segment of n.
func chunkName(i, n int) string { return segmentAttr + strconv.Itoa(i) + "-of-" + strconv.Itoa(n) }

// SegmentLimit is the most bytes a segment holds.
func (x *XAttrSegments) SegmentLimit() int { return x.chunk * x.count }

func (x *XAttrSegments) List(ctx context.Context) ([]string, error) {
	names, err := x.nn.ReadDir(ctx, x.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return names, err
}

// Write is called from one goroutine at a time (its writer's).
func (x *XAttrSegments) Write(ctx context.Context, name string, data []byte) error {
	err := x.write(ctx, name, data)
	x.made = err == nil
	return err
}

func (x *XAttrSegments) write(ctx context.Context, name string, data []byte) error {
	if len(data) > x.SegmentLimit() {
		return fmt.Errorf("staging: a segment of %d bytes, over the %d a NameNode's attributes hold", len(data), x.SegmentLimit())
	}
	if !x.made {
		if err := x.nn.Mkdirs(ctx, x.dir, 0o700); err != nil {
			return err
		}
	}
	// Created over a dead writer's, if one left it half-written.
	tmp := path.Join(x.dir, "."+name+".tmp")
	id, err := x.nn.Create(ctx, tmp, x.file)
	if err != nil {
		return err
	}
	n := (len(data) + x.chunk - 1) / x.chunk
	for i := range n {
		if err := x.nn.SetXAttr(ctx, tmp, chunkName(i, n), data[i*x.chunk:min(len(data), (i+1)*x.chunk)]); err != nil {
			return err
		}
	}
	if err := x.nn.Complete(ctx, tmp, x.file.Client, id); err != nil {
		return err
	}
	return x.nn.Rename(ctx, tmp, path.Join(x.dir, name), true)
}

// Read joins a segment's attributes, the others a file may have (an
// admin's) aside. One missing, or two that disagree on their count, is
// an error: no reader takes part of a segment.
func (x *XAttrSegments) Read(ctx context.Context, name string) ([]byte, error) {
	attrs, err := x.nn.XAttrs(ctx, path.Join(x.dir, name))
	if err != nil {
		return nil, err
	}
	var chunks [][]byte
	for attr, v := range attrs {
		rest, ok := strings.CutPrefix(attr, segmentAttr)
		if !ok {
			continue
		}
		i, n, ok := parseChunk(rest)
		if !ok || n > x.count {
			return nil, fmt.Errorf("segment %s: attribute user.%s is no part of a segment", name, attr)
		}
		if chunks != nil && n != len(chunks) {
			return nil, fmt.Errorf("segment %s: attribute user.%s is a part of %d, another's of %d", name, attr, n, len(chunks))
		}
		if chunks == nil {
			chunks = make([][]byte, n)
		}
		chunks[i] = v
	}
	var data []byte
	for i, c := range chunks {
		if c == nil {
			return nil, fmt.Errorf("segment %s: attribute user.%s is missing", name, chunkName(i, len(chunks)))
		}
		data = append(data, c...)
	}
	return data, nil
}

// parseChunk reads "I-of-N", 0 <= I < N, written as chunkName writes them.
func parseChunk(s string) (i, n int, ok bool) {
	a, b, ok := strings.Cut(s, "-of-")
	i, errI := strconv.Atoi(a)
	n, errN := strconv.Atoi(b)
	if !ok || errI != nil || errN != nil || i < 0 || i >= n || chunkName(i, n) != segmentAttr+s {
		return 0, 0, false
	}
	return i, n, true
}

func (x *XAttrSegments) Remove(ctx context.Context, name string) error {
	_, err := x.nn.Delete(ctx, path.Join(x.dir, name), false)
	return err
}
