package staging

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// The binary cache: a file that every application of a user ships alike
// (the spindle binary, 16 MB) is uploaded once per content into a
// per-user directory on fs.defaultFS and reused by later submissions, as
// Spark's spark.yarn.archive is, but kept by Spindle itself.
//
//	/user/alice/.spindle/cache/spindle-<sha256 of its content>
//
// The name is the content's hash, so a cached copy is never replaced:
// changing a file YARN has been told about (its size and modification
// time are in every LocalResource naming it) would fail the
// localization of every application still using it. A new binary is a
// new name. The copy is 0700 in a 0700 directory and goes to containers
// with PRIVATE visibility: the NodeManagers keep it in the user's own
// cache and download it once per node, not once per application.
const (
	// cacheSubdir is the cache's directory under the staging directory's
	// root, beside the applications' directories.
	cacheSubdir = "cache"
	// abandonedAfter is how old a cached file of the wrong size must be to
	// be taken for an upload that died (the NameNode has recovered its
	// lease, whose hard limit is 20 minutes) rather than one under way.
	abandonedAfter = time.Hour
	// keepCached and pruneAfter bound the cache: beyond the keepCached
	// newest copies of a file, those older than pruneAfter are removed
	// when a new one is uploaded. An application that outlives them would
	// find its binary gone when it starts a container.
	keepCached = 3
	pruneAfter = 7 * 24 * time.Hour
)

// ErrCacheBusy says a cached copy is being written by another submission
// (or was left incomplete): stage the file with the application instead.
var ErrCacheBusy = errors.New("another submission is writing the cached copy")

// CacheDir is the user's binary cache: the cache directory under the
// staging directory's root (template, DefaultDir when empty).
func CacheDir(template, user string) string { return StagingDir(template, user, cacheSubdir) }

// Cached puts f in dir under a name of its content's hash, uploading it
// only when no complete copy is there, and returns its LocalResource
// (keyed by f.Name, PRIVATE) and whether it uploaded. An error (ErrCacheBusy
// among them) leaves nothing of this call's behind; the caller can then
// stage f with the application as before.
func (s *Stager) Cached(ctx context.Context, dir string, f File) (*hadoopyarn.StringLocalResourceMapProto, bool, error) {
	if err := checkDir(dir); err != nil {
		return nil, false, err
	}
	if err := checkFiles([]File{f}); err != nil {
		return nil, false, err
	}
	sum, size, err := localDigest(ctx, f.Local)
	if err != nil {
		return nil, false, err
	}
	dst := path.Join(dir, cachedName(f.Name, sum))
	uploaded := false
	st, err := s.fs.stat(dst)
	switch {
	case err == nil && st.Mode().IsRegular() && st.Size() == size:
		// A complete copy: the name says its content.
	case err == nil && time.Since(st.ModTime()) > abandonedAfter:
		if err := s.fs.removeAll(dst); err != nil {
			return nil, false, fmt.Errorf("staging: removing the abandoned copy %s%s: %w", s.origin, dst, err)
		}
		fallthrough
	case errors.Is(err, fs.ErrNotExist):
		if st, err = s.uploadCopy(ctx, dir, dst, f.Local, sum); err != nil {
			return nil, false, err
		}
		uploaded = true
		s.prune(dir, f.Name, dst)
	case err == nil:
		return nil, false, fmt.Errorf("staging: %s%s has %d of %d bytes: %w", s.origin, dst, st.Size(), size, ErrCacheBusy)
	default:
		return nil, false, fmt.Errorf("staging: %s%s: %w", s.origin, dst, err)
	}
	return &hadoopyarn.StringLocalResourceMapProto{Key: proto.String(f.Name), Value: &hadoopyarn.LocalResourceProto{
		Resource:   s.origin.resourceURL(dst),
		Size:       proto.Int64(st.Size()),
		Timestamp:  proto.Int64(st.ModTime().UnixMilli()),
		Type:       f.resourceType().Enum(),
		Visibility: hadoopyarn.LocalResourceVisibilityProto_PRIVATE.Enum(),
	}}, uploaded, nil
}

// cachedName is name's cached copy's name for content sum.
func cachedName(name string, sum []byte) string { return name + "-" + hex.EncodeToString(sum) }

// uploadCopy writes local into dst, a new file, checking that what it wrote
// hashes to sum: a local file rebuilt meanwhile must not be cached under
// its old content's name.
func (s *Stager) uploadCopy(ctx context.Context, dir, dst, local string, sum []byte) (fs.FileInfo, error) {
	if err := s.fs.mkdirPrivate(dir); err != nil {
		return nil, fmt.Errorf("staging: creating %s%s: %w", s.origin, dir, err)
	}
	src, err := os.Open(local)
	if err != nil {
		return nil, fmt.Errorf("staging: %w", err)
	}
	defer src.Close()
	h := sha256.New()
	if err := s.fs.upload(ctx, dst, ctxReader{ctx, io.TeeReader(src, h)}, 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			err = ErrCacheBusy // another submission created it first
		}
		return nil, fmt.Errorf("staging: uploading %s to %s%s: %w", local, s.origin, dst, err)
	}
	if got := h.Sum(nil); !bytes.Equal(got, sum) {
		return nil, errors.Join(fmt.Errorf("staging: %s changed while it was uploaded to %s%s", local, s.origin, dst), s.fs.removeAll(dst))
	}
	st, err := s.fs.stat(dst)
	if err != nil {
		return nil, fmt.Errorf("staging: %s%s: %w", s.origin, dst, err)
	}
	return st, nil
}

// prune removes name's cached copies beyond the keepCached newest that
// are older than pruneAfter, best effort: a copy it cannot remove stays
// for the next upload to try again.
func (s *Stager) prune(dir, name, keep string) {
	entries, err := s.fs.readDir(dir)
	if err != nil {
		return
	}
	var copies []fs.FileInfo
	for _, e := range entries {
		if isCachedCopy(e.Name(), name) && path.Join(dir, e.Name()) != keep {
			copies = append(copies, e)
		}
	}
	sort.Slice(copies, func(i, k int) bool { return copies[i].ModTime().After(copies[k].ModTime()) })
	for i, c := range copies {
		if i >= keepCached-1 && time.Since(c.ModTime()) > pruneAfter {
			s.fs.removeAll(path.Join(dir, c.Name()))
		}
	}
}

// isCachedCopy says whether entry is a cached copy of name: name, '-' and
// a SHA-256 in hex.
func isCachedCopy(entry, name string) bool {
	h, ok := strings.CutPrefix(entry, name+"-")
	if !ok || len(h) != 2*sha256.Size {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}

// localDigest hashes a local regular file.
func localDigest(ctx context.Context, name string) ([]byte, int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, 0, fmt.Errorf("staging: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, fmt.Errorf("staging: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("staging: %s is not a regular file", name)
	}
	h := sha256.New()
	n, err := io.Copy(h, ctxReader{ctx, f})
	if err != nil {
		return nil, 0, fmt.Errorf("staging: reading %s: %w", name, err)
	}
	return h.Sum(nil), n, nil
}
