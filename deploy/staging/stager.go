package staging

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/kerberos"
)

// Stager uploads files to fs.defaultFS and describes them as YARN
// LocalResources. It is not safe for concurrent use.
type Stager struct {
	fs     fileSystem
	origin origin
}

// fileSystem is where staged files go: HDFS, or the local disk of a
// single-machine cluster. Paths are absolute and clean.
type fileSystem interface {
	// mkdirPrivate creates dir and missing parents, and makes dir 0700.
	mkdirPrivate(dir string) error
	// upload copies src into a new file dst (an existing one is an error)
	// with mode perm. When it returns nil the file is complete: its size
	// and modification time are final.
	upload(ctx context.Context, dst string, src io.Reader, perm fs.FileMode) error
	stat(name string) (fs.FileInfo, error)
	// readDir lists dir's entries.
	readDir(dir string) ([]fs.FileInfo, error)
	// removeAll removes name and everything under it; a missing name is
	// no error.
	removeAll(name string) error
	// rename renames a file, replacing what newName named.
	rename(oldName, newName string) error
	// readFile reads up to max bytes of a file.
	readFile(name string, max int64) ([]byte, error)
	// readRange reads up to n bytes of a file from offset off.
	readRange(name string, off, n int64) ([]byte, error)
	close() error
}

// New returns a Stager for conf's fs.defaultFS: HDFS (hdfs://), reached as
// user, or the local file system (file://). On a Kerberos cluster HDFS is
// reached as id, which must then be a login.
func New(conf *hadoopconf.Conf, user string, id *kerberos.Identity) (*Stager, error) {
	fsURI, err := conf.DefaultFS()
	if err != nil {
		return nil, fmt.Errorf("staging: %w", err)
	}
	o, err := newOrigin(fsURI)
	if err != nil {
		return nil, err
	}
	var fsys fileSystem
	switch fsURI.Scheme {
	case "hdfs":
		fsys, err = newHDFS(conf, fsURI, user, id)
	case "file":
		fsys = localFS{}
	default:
		err = fmt.Errorf("staging: fs.defaultFS %s: cannot stage files on %s:// (hdfs:// or file://)", fsURI, fsURI.Scheme)
	}
	if err != nil {
		return nil, err
	}
	return &Stager{fs: fsys, origin: o}, nil
}

// Local is a Stager on this machine's disk, whatever fs.defaultFS is:
// where local mode keeps its event logs.
func Local() *Stager { return &Stager{fs: localFS{}, origin: origin{scheme: "file", port: -1}} }

// Close releases the connection to the file system.
func (s *Stager) Close() error { return s.fs.close() }

// Stage creates dir (0700) and uploads files into it, each under its Name,
// and returns their LocalResources in the order of files, keyed by Name.
// ctx is checked before each file and while copying; the HDFS client has
// no other way to be cancelled, but its data transfers take ctx's deadline.
//
// On an error, files already uploaded stay in dir: remove it with Remove,
// as when the application ends.
func (s *Stager) Stage(ctx context.Context, dir string, files []File) ([]*hadoopyarn.StringLocalResourceMapProto, error) {
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	if err := checkFiles(files); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := s.fs.mkdirPrivate(dir); err != nil {
		return nil, fmt.Errorf("staging: creating %s%s: %w", s.origin, dir, err)
	}
	out := make([]*hadoopyarn.StringLocalResourceMapProto, 0, len(files))
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res, err := s.stageFile(ctx, path.Join(dir, f.Name), f)
		if err != nil {
			return nil, err
		}
		out = append(out, &hadoopyarn.StringLocalResourceMapProto{Key: proto.String(f.Name), Value: res})
	}
	return out, nil
}

func (s *Stager) stageFile(ctx context.Context, dst string, f File) (*hadoopyarn.LocalResourceProto, error) {
	src, err := os.Open(f.Local)
	if err != nil {
		return nil, fmt.Errorf("staging: %w", err)
	}
	defer src.Close()
	info, err := src.Stat()
	if err != nil {
		return nil, fmt.Errorf("staging: %w", err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("staging: %s is not a regular file (a directory ships as an ARCHIVE of it)", f.Local)
	}
	perm := fs.FileMode(0o600)
	if f.Executable || info.Mode()&0o111 != 0 {
		perm = 0o700
	}
	if err := s.fs.upload(ctx, dst, ctxReader{ctx, src}, perm); err != nil {
		return nil, fmt.Errorf("staging: uploading %s to %s%s: %w", f.Local, s.origin, dst, err)
	}
	// Size and time come from the copy, not the local file: they are what
	// the NodeManager will compare.
	st, err := s.fs.stat(dst)
	if err != nil {
		return nil, fmt.Errorf("staging: %s%s: %w", s.origin, dst, err)
	}
	return &hadoopyarn.LocalResourceProto{
		Resource:   s.origin.resourceURL(dst),
		Size:       proto.Int64(st.Size()),
		Timestamp:  proto.Int64(st.ModTime().UnixMilli()),
		Type:       f.resourceType().Enum(),
		Visibility: hadoopyarn.LocalResourceVisibilityProto_APPLICATION.Enum(),
	}, nil
}

// Remove deletes dir and everything in it; a missing dir is no error, so
// Remove may run more than once (after a failed Stage, then when the
// application ends).
func (s *Stager) Remove(ctx context.Context, dir string) error {
	if err := checkDir(dir); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.fs.removeAll(dir); err != nil {
		return fmt.Errorf("staging: removing %s%s: %w", s.origin, dir, err)
	}
	return nil
}

// checkDir accepts an absolute, clean path below the root: Remove deletes
// recursively, so a mistyped "/" or "" must not get that far.
func checkDir(dir string) error {
	if !path.IsAbs(dir) || path.Clean(dir) != dir || dir == "/" {
		return fmt.Errorf("staging: directory %q: want an absolute, clean path below / on fs.defaultFS", dir)
	}
	return nil
}

// ctxReader stops a copy once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
