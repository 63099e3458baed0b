package splits

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
)

// Lister lists a filesystem's files: the local one (splits/localfs) and,
// to come, HDFS's, with each block's hosts from the NameNode; ListFS
// does the work for any filesystem io/fs can read. A stage's
// input is listed once, at submit (or when the stage starts, for one
// reading its parent's output), by ListAll.
type Lister interface {
	// List expands one path or glob into the files under it, a directory
	// into the files below it, skipping hidden names (starting with _ or
	// .) that a glob or a directory brings in, as Hadoop's
	// FileInputFormat does. It fails, naming the path, on a path that
	// does not exist (an error that is fs.ErrNotExist), one it may not
	// read (fs.ErrPermission), a glob or directory with no file
	// (ErrNoMatch), and more than limit files.
	List(ctx context.Context, pattern string, limit int) ([]File, error)
}

// ErrNoMatch is what a Lister's error is when a glob or a directory holds
// no file.
var ErrNoMatch = errors.New("matched no file")

// ListAll lists each of patterns with l, in path order; a file two
// patterns match is listed once. More than limit files in all is an
// error, before more are listed.
func ListAll(ctx context.Context, l Lister, patterns []string, limit int) ([]File, error) {
	var all []File
	for _, p := range patterns {
		files, err := l.List(ctx, p, limit-len(all))
		if err != nil {
			return nil, err
		}
		all = append(all, files...)
	}
	slices.SortStableFunc(all, func(a, b File) int { return cmp.Compare(a.Path, b.Path) })
	all = slices.CompactFunc(all, func(a, b File) bool { return a.Path == b.Path })
	if len(all) > limit {
		return nil, fmt.Errorf("%v: more than %d files", patterns, limit)
	}
	return all, nil
}
