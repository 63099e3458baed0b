package journal

import "context"

// Store keeps a journal's segments: the staging directory's journal/ on
// HDFS, or a local directory (deploy/staging). Its errors are taken for
// trouble reaching it, which may pass (Load's ErrUnreadable).
type Store interface {
	// List names the segments there, in any order; a missing journal
	// is none.
	List(ctx context.Context) ([]string, error)
	// Read reads a segment, at most MaxSegmentBytes+1 of it.
	Read(ctx context.Context, name string) ([]byte, error)
	// Write stores a new segment whole: once it returns nil a reader
	// sees all of it, and before, none.
	Write(ctx context.Context, name string, data []byte) error
	Remove(ctx context.Context, name string) error
}

// Limited is a Store that holds segments of at most SegmentLimit bytes,
// fewer than MaxSegmentBytes: one that keeps them in a NameNode's
// extended attributes, whose limits are the NameNode's. A Writer writes
// none longer, as it writes none over MaxSegmentBytes.
type Limited interface {
	Store
	SegmentLimit() int
}
