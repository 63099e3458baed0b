package localfs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spindle-yarn/spindle/internal/splits"
)

// DefaultBlockSize is Hadoop's fs.local.block.size: what a local file is
// cut at when its stage splits by block or bytes.
const DefaultBlockSize = 32 << 20

// Lister lists local files; the zero value is ready, with
// DefaultBlockSize.
type Lister struct {
	BlockSize int64
}

var _ splits.Lister = Lister{}

// fileScheme prefixes a local file's URI, file:///data/x.
const fileScheme = "file://"

// List expands pattern, a file:// URI or an absolute path (listed as
// such: file:///x gives file:///x/a, /x gives /x/a), by splits.ListFS's
// rules.
func (l Lister) List(ctx context.Context, pattern string, limit int) ([]splits.File, error) {
	local, prefix, err := localPath(pattern)
	if err != nil {
		return nil, err
	}
	blockSize := l.BlockSize
	if blockSize <= 0 {
		blockSize = DefaultBlockSize
	}
	// io/fs's paths are unrooted: data/x for /data/x, "." for /.
	rel := strings.TrimPrefix(local, "/")
	if rel == "" {
		rel = "."
	}
	show := func(p string) string {
		if p == "." {
			return prefix + "/"
		}
		return prefix + "/" + p
	}
	return splits.ListFS(ctx, os.DirFS("/"), rel, show, limit, blockSize)
}

// localPath is pattern's path on this machine, cleaned, and what prefixes
// the paths listed.
func localPath(pattern string) (local, prefix string, err error) {
	local = pattern
	if strings.HasPrefix(pattern, fileScheme) {
		local, prefix = pattern[len(fileScheme):], fileScheme
	} else if strings.Contains(pattern, "://") {
		return "", "", fmt.Errorf("%s: not a local path: want file:///PATH or /PATH", pattern)
	}
	if !strings.HasPrefix(local, "/") {
		return "", "", fmt.Errorf("%s: not an absolute path (file:///PATH, or /PATH)", pattern)
	}
	return filepath.Clean(local), prefix, nil
}
