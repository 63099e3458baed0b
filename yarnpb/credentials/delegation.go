package credentials

import (
	"time"
)

// DelegationIdentifier is what a delegation token's identifier says of
// it, as Hadoop's AbstractDelegationTokenIdentifier writes it (HDFS's
// HDFS_DELEGATION_TOKEN among others):
//
//	+---------+-------+---------+----------+-----------+---------+--------+-----------+
//	| version | owner | renewer | realUser | issueDate | maxDate | seqNum | masterKey |
//	| byte 0  | Text  | Text    | Text     | vlong ms  | vlong ms| vint   | vint      |
//	+---------+-------+---------+----------+-----------+---------+--------+-----------+
//
// Text is a vint length and UTF-8 bytes. The token expires at the end of
// its renewal interval unless renewed, and never lives past MaxDate.
type DelegationIdentifier struct {
	Owner, Renewer, RealUser string
	Issued, MaxDate          time.Time
	SequenceNumber           int64
	MasterKeyID              int64
}

// ParseDelegationIdentifier reads a delegation token's identifier. An
// identifier of another layout (YARN's RM tokens are protobuf) is a
// FormatError saying where it stopped making sense.
func ParseDelegationIdentifier(b []byte) (DelegationIdentifier, error) {
	c := &cursor{buf: b, ctx: "delegation token identifier"}
	var id DelegationIdentifier
	if c.left() == 0 {
		return id, c.fail(0, "empty")
	}
	if v := c.buf[0]; v != 0 {
		return id, c.fail(0, "version %d, want 0", v)
	}
	c.off = 1
	var err error
	for _, f := range []struct {
		dst  *string
		what string
	}{{&id.Owner, "owner"}, {&id.Renewer, "renewer"}, {&id.RealUser, "real user"}} {
		if *f.dst, err = c.text(f.what); err != nil {
			return id, err
		}
	}
	issued, err := c.vlong("issue date")
	if err != nil {
		return id, err
	}
	maxDate, err := c.vlong("max date")
	if err != nil {
		return id, err
	}
	if id.SequenceNumber, err = c.vlong("sequence number"); err != nil {
		return id, err
	}
	if id.MasterKeyID, err = c.vlong("master key id"); err != nil {
		return id, err
	}
	if c.left() != 0 {
		return id, c.fail(c.off, "%d bytes after the master key id", c.left())
	}
	id.Issued, id.MaxDate = time.UnixMilli(issued), time.UnixMilli(maxDate)
	return id, nil
}
