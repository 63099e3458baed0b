package staging

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/colinmarc/hdfs/v2"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/kerberos"
)

// Hadoop's defaults for the keys read here (hdfs-default.xml).
const (
	defaultReplication = 3
	defaultBlockSize   = 128 << 20
)

// hdfsFS stages on HDFS through colinmarc/hdfs.
type hdfsFS struct {
	client      *hdfs.Client
	replication int
	blockSize   int64
}

func newHDFS(conf *hadoopconf.Conf, fsURI *url.URL, user string, id *kerberos.Identity) (*hdfsFS, error) {
	if user == "" {
		return nil, errors.New("staging: no user to write to HDFS as")
	}
	hc := conf.HadoopConf()
	// colinmarc's Namenodes, which ClientOptionsFromConf calls, panics on
	// a value url.Parse refuses (" hdfs://nn:8020" with its space); give it
	// the URI DefaultFS already read. Its addresses are replaced below.
	hc["fs.defaultFS"] = fsURI.String()
	opts := hdfs.ClientOptionsFromConf(hc)
	addrs, _, err := conf.NameNodes(fsURI)
	if err != nil {
		return nil, fmt.Errorf("staging: %w", err)
	}
	opts.Addresses = addrs
	opts.User = user
	// On a Kerberos cluster colinmarc's options carry a placeholder client
	// that NewClient refuses: only a login can replace it.
	if opts.KerberosClient != nil {
		if id == nil {
			return nil, errors.New("staging: hadoop.security.authentication is kerberos, and this process has no Kerberos login to reach HDFS with")
		}
		opts.KerberosClient = id.Client()
		if len(addrs) == 1 {
			// colinmarc puts the dialed host for _HOST, an address here;
			// Hadoop puts the address's canonical name.
			spn, err := kerberos.ServerPrincipal(conf, kerberos.NameNodeKey, addrs[0])
			if err != nil {
				return nil, fmt.Errorf("staging: %w", err)
			}
			opts.KerberosServicePrincipleName, _, _ = strings.Cut(spn, "@")
		}
	}
	replication, err := conf.GetInt("dfs.replication", defaultReplication)
	if err != nil {
		return nil, fmt.Errorf("staging: %w", err)
	}
	blockSize, err := blockSize(conf)
	if err != nil {
		return nil, err
	}
	client, err := hdfs.NewClient(opts)
	if err != nil {
		return nil, fmt.Errorf("staging: connecting to HDFS at %s: %w", strings.Join(addrs, ","), err)
	}
	return &hdfsFS{client: client, replication: replication, blockSize: blockSize}, nil
}

// blockSize reads dfs.blocksize as Hadoop's getLongBytes does: a number of
// bytes with an optional binary suffix k, m, g, t, p or e.
func blockSize(conf *hadoopconf.Conf) (int64, error) {
	v, ok, err := conf.Lookup("dfs.blocksize")
	if err != nil {
		return 0, fmt.Errorf("staging: %w", err)
	}
	if !ok {
		return defaultBlockSize, nil
	}
	n, err := parseBytes(v)
	if err != nil {
		return 0, fmt.Errorf("staging: dfs.blocksize = %q: %w", v, err)
	}
	return n, nil
}

func parseBytes(v string) (int64, error) {
	s := strings.ToLower(strings.TrimSpace(v))
	shift := 0
	if s != "" {
		if i := strings.IndexByte("kmgtpe", s[len(s)-1]); i >= 0 {
			shift = 10 * (i + 1)
			s = s[:len(s)-1]
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<63-1)>>shift {
		return 0, errors.New("want a positive number of bytes, optionally with k, m, g, t, p or e")
	}
	return n << shift, nil
}

func (h *hdfsFS) mkdirPrivate(dir string) error {
	if err := h.client.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// Parents get the usual 0755; the directory itself is made private
	// afterwards, as Spark's FileSystem.mkdirs(fs, dir, 0700) does.
	return h.client.Chmod(dir, 0o700)
}

func (h *hdfsFS) upload(ctx context.Context, dst string, src io.Reader, perm fs.FileMode) error {
	w, err := h.client.CreateFile(dst, h.replication, h.blockSize, perm)
	if err != nil {
		return err
	}
	if deadline, ok := ctx.Deadline(); ok {
		// Before the first write this only records the deadline for the
		// DataNode connections; there is no error yet to check.
		w.SetDeadline(deadline)
	}
	if _, err := io.Copy(w, src); err != nil {
		w.Close()
		return errors.Join(err, h.client.Remove(dst))
	}
	if err := complete(ctx, w); err != nil {
		return err
	}
	// The NameNode may have masked the mode given at create (a parent's
	// default ACL); setting it does not touch the modification time.
	return h.client.Chmod(dst, perm)
}

// complete closes w and waits until the NameNode has completed the file:
// until then its length and modification time may still change. Like the
// Java client, it retries with backoff (here for about 10s in all).
func complete(ctx context.Context, w *hdfs.FileWriter) error {
	delay := 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := w.Close()
		if !hdfs.IsErrReplicating(err) {
			return err
		}
		if attempt == 8 {
			return fmt.Errorf("the NameNode did not complete the file: %w", err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for the NameNode to complete the file: %w", ctx.Err())
		case <-time.After(delay):
		}
		delay = min(2*delay, 4*time.Second)
	}
}

func (h *hdfsFS) stat(name string) (fs.FileInfo, error) { return h.client.Stat(name) }

func (h *hdfsFS) readDir(dir string) ([]fs.FileInfo, error) { return h.client.ReadDir(dir) }

func (h *hdfsFS) removeAll(name string) error { return h.client.RemoveAll(name) }

func (h *hdfsFS) rename(oldName, newName string) error { return h.client.Rename(oldName, newName) }

func (h *hdfsFS) readFile(name string, max int64) ([]byte, error) {
	f, err := h.client.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

func (h *hdfsFS) readRange(name string, off, n int64) ([]byte, error) {
	f, err := h.client.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.NewSectionReader(f, off, n))
}

func (h *hdfsFS) close() error { return h.client.Close() }
