// Package splits turns a stage's input (docs/data.md) into the splits its
// tasks read: a listing of files with their blocks and the hosts holding
// each (File), cut by a mode (Mode: a file, a block, N files or about N
// bytes a split) into Splits of (path, offset, length) pieces, each with
// the hosts that hold most of its bytes (Plan); the file a task reads its
// split from, one piece a line (WritePieces, ParsePieces); and what lists
// a stage's paths and globs (Lister, ListAll), with the glob and
// directory walk every lister shares over io/fs (ListFS) and the local
// filesystem's lister in splits/localfs.
//
// It imports nothing of Spindle's, so that the submitter (deploy), the
// AM's loop and the job model (am/jobspec, which names a Mode) can all
// use it. Plan is pure: no I/O, no clock, the same splits for the same
// listing in any order; only the listers touch a filesystem. An HDFS
// lister is to implement Lister, most simply as ListFS over an fs.FS
// adapter of an HDFS client whose FileInfo.Sys() is the file's []Block
// from the NameNode.
package splits
