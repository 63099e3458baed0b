package splits

import (
	"fmt"
	"iter"
)

// File is one file of a listing: its path as a task is to open it (a URI
// such as hdfs://nn/data/part-0 or file:///data/a, or a plain local
// path), its length, and where its bytes are.
type File struct {
	Path   string
	Length int64
	// BlockSize cuts a file whose Blocks are not given into blocks with
	// no hosts (a local file: Hadoop's fs.local.block.size); 0 or less
	// makes the whole file one block.
	BlockSize int64
	// Blocks, when given, are the file's blocks in order, each starting
	// where the one before ends and together covering it: HDFS's block
	// locations from the NameNode.
	Blocks []Block
}

// Block is one block of a file and the hosts (DataNodes) holding a
// replica of it.
type Block struct {
	Offset, Length int64
	Hosts          []string
}

// check reports what makes f unusable, naming its path.
func (f *File) check() error {
	switch {
	case f.Path == "":
		return fmt.Errorf("a file with no path")
	case f.Length < 0:
		return fmt.Errorf("%s: length %d below 0", f.Path, f.Length)
	}
	if f.Blocks == nil {
		return nil
	}
	var at int64
	for i, b := range f.Blocks {
		if b.Offset != at || b.Length <= 0 || b.Length > f.Length-at {
			return fmt.Errorf("%s: block %d (offset %d, length %d) does not follow on at offset %d of %d bytes",
				f.Path, i, b.Offset, b.Length, at, f.Length)
		}
		at += b.Length
	}
	if at != f.Length {
		return fmt.Errorf("%s: blocks cover %d of its %d bytes", f.Path, at, f.Length)
	}
	return nil
}

// blockCount is how many blocks f has, without making them: an absurd
// length over a block size of 1 counts, it is not allocated.
func (f *File) blockCount() int64 {
	switch {
	case f.Blocks != nil:
		return int64(len(f.Blocks))
	case f.Length == 0:
		return 0
	case f.BlockSize <= 0:
		return 1
	}
	return (f.Length-1)/f.BlockSize + 1
}

// blocks yields f's blocks in order: its own, or cut by BlockSize with no
// hosts. An empty file has none.
func (f *File) blocks() iter.Seq[Block] {
	return func(yield func(Block) bool) {
		if f.Blocks != nil {
			for _, b := range f.Blocks {
				if !yield(b) {
					return
				}
			}
			return
		}
		size := f.BlockSize
		if size <= 0 {
			size = max(f.Length, 1)
		}
		for at := int64(0); at < f.Length; at += size {
			if !yield(Block{Offset: at, Length: min(size, f.Length-at)}) {
				return
			}
		}
	}
}
