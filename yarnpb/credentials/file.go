package credentials

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// EnvTokenFile is the environment variable that names the credentials file
// in a YARN container.
const EnvTokenFile = "HADOOP_TOKEN_FILE_LOCATION"

// MaxFileSize bounds what Read accepts and Write produces. Real files hold a
// few tokens of a few hundred bytes each; the bound keeps a corrupt or
// hostile file from costing more memory than this.
const MaxFileSize = 16 << 20

// magic opens every credentials file (Hadoop's TOKEN_STORAGE_MAGIC).
const magic = "HDTS"

// Version is a credentials file's encoding: the byte after the magic
// (Hadoop's Credentials.SerializedFormat).
type Version byte

const (
	Writable Version = 0 // Hadoop Writable encoding, WritableUtils vints
	Protobuf Version = 1 // a length-delimited CredentialsProto

	// DefaultVersion is what Hadoop 3 writes when not told otherwise
	// (writeTokenStorageFile without a format): the oldest encoding, which
	// every Hadoop release reads.
	DefaultVersion = Writable
)

func (v Version) String() string {
	switch v {
	case Writable:
		return "Writable"
	case Protobuf:
		return "Protobuf"
	}
	return fmt.Sprintf("Version(%d)", byte(v))
}

// Read reads a credentials file of either version to its end. Malformed
// input is a *FormatError.
func Read(r io.Reader) (*Credentials, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("credentials: reading: %w", err)
	}
	return decode(data)
}

// ReadFile reads the credentials file at path.
func ReadFile(path string) (*Credentials, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("credentials: %w", err)
	}
	defer f.Close()
	c, err := Read(f)
	if fe, ok := err.(*FormatError); ok {
		fe.Path = path
	}
	return c, err
}

// FromEnvironment reads the credentials file that $HADOOP_TOKEN_FILE_LOCATION
// names, as every process in a YARN container does to find its tokens. It
// returns ErrNoTokenFile when the variable is unset or empty.
func FromEnvironment() (*Credentials, error) {
	path := os.Getenv(EnvTokenFile)
	if path == "" {
		return nil, ErrNoTokenFile
	}
	return ReadFile(path)
}

// decode reads a whole file held in memory.
func decode(data []byte) (*Credentials, error) {
	if len(data) > MaxFileSize {
		return nil, &FormatError{Offset: MaxFileSize, Detail: fmt.Sprintf("larger than the %d-byte limit", MaxFileSize)}
	}
	c := &cursor{buf: data}
	// The first bytes of something that is not a credentials file may be
	// anyone's secret: say that they are wrong, not what they are.
	if len(data) < len(magic) || string(data[:len(magic)]) != magic {
		return nil, c.fail(0, "no %q magic at offset 0: not a Hadoop credentials file", magic)
	}
	c.off = len(magic)
	if c.left() == 0 {
		return nil, c.fail(c.off, "the file ends at offset %d, before the version byte", c.off)
	}
	v := Version(data[c.off])
	c.off++
	var creds *Credentials
	var err error
	switch v {
	case Writable:
		creds, err = decodeWritable(c)
	case Protobuf:
		creds, err = decodeProtobuf(c)
	default:
		return nil, c.fail(len(magic), "unknown version %d at offset %d (Hadoop writes 0, Writable, or 1, Protobuf)", byte(v), len(magic))
	}
	if err != nil {
		return nil, err
	}
	if c.left() > 0 {
		return nil, c.fail(c.off, "%d bytes of trailing data at offset %d after the %s body", c.left(), c.off, v)
	}
	return creds, nil
}

// Write writes c in version v, all at once: nothing is written when c cannot
// be encoded. Two tokens or two secrets with one alias are refused, since
// Hadoop would silently keep only one of them.
func (c *Credentials) Write(w io.Writer, v Version) error {
	b, err := c.encode(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// WriteFile writes c in version v to path, replacing it atomically (a
// temporary file in the same directory, renamed into place), with mode 0600
// because the file holds secrets.
func (c *Credentials) WriteFile(path string, v Version) (err error) {
	b, err := c.encode(v)
	if err != nil {
		return err
	}
	// CreateTemp makes the file 0600, so the secrets are never readable by
	// others, not even before the rename.
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("credentials: %w", err)
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
			err = fmt.Errorf("credentials: writing %s: %w", path, err)
		}
	}()
	if _, err = f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err = f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// encode returns the whole file: magic, version, body.
func (c *Credentials) encode(v Version) ([]byte, error) {
	if err := c.duplicateAlias(); err != nil {
		return nil, err
	}
	b := append([]byte(magic), byte(v))
	switch v {
	case Writable:
		b = appendWritable(b, c)
	case Protobuf:
		var err error
		if b, err = appendProtobuf(b, c); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("credentials: cannot write unknown %v", v)
	}
	if len(b) > MaxFileSize {
		return nil, fmt.Errorf("credentials: %d bytes encoded, more than the %d-byte limit a reader accepts", len(b), MaxFileSize)
	}
	return b, nil
}

// Bytes is c in the default version, as a container launch context's
// tokens carry it.
func (c *Credentials) Bytes() ([]byte, error) { return c.encode(DefaultVersion) }
