package namenode

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoophdfs"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
)

// The protocol name every call declares, and the kind of the tokens a
// NameNode issues.
const (
	Protocol            = "org.apache.hadoop.hdfs.protocol.ClientProtocol"
	DelegationTokenKind = "HDFS_DELEGATION_TOKEN"
)

// Client speaks to the NameNode(s) of one file system: one address, or
// the NameNodes of an HA nameservice in failover order.
type Client struct{ c *ipc.Client }

// New returns a client for the NameNodes at addrs.
func New(addrs []string, opts ipc.Options) (*Client, error) {
	opts.Protocol = Protocol
	if opts.Auth.TokenKind == "" {
		opts.Auth.TokenKind = DelegationTokenKind
	}
	c, err := ipc.NewClient(addrs, opts)
	if err != nil {
		return nil, err
	}
	return &Client{c}, nil
}

// GetDelegationToken asks for a token that renewer (a principal's short
// name, usually the ResourceManager's) may renew. The NameNode returns it
// with an empty service: the caller names it (Service).
func (c *Client) GetDelegationToken(ctx context.Context, renewer string) (*hadoopcommon.TokenProto, error) {
	resp := &hadoopcommon.GetDelegationTokenResponseProto{}
	if err := c.c.Call(ctx, "getDelegationToken", &hadoopcommon.GetDelegationTokenRequestProto{Renewer: proto.String(renewer)}, resp); err != nil {
		return nil, err
	}
	if resp.Token == nil {
		// A NameNode without security issues none, and says so by silence.
		return nil, fmt.Errorf("the NameNode issued no delegation token: is hadoop.security.authentication kerberos on the cluster?")
	}
	return resp.Token, nil
}

// RenewDelegationToken extends t and returns its new expiry. Only its
// renewer may.
func (c *Client) RenewDelegationToken(ctx context.Context, t *hadoopcommon.TokenProto) (time.Time, error) {
	resp := &hadoopcommon.RenewDelegationTokenResponseProto{}
	if err := c.c.Call(ctx, "renewDelegationToken", &hadoopcommon.RenewDelegationTokenRequestProto{Token: t}, resp); err != nil {
		return time.Time{}, err
	}
	return time.UnixMilli(int64(resp.GetNewExpiryTime())), nil
}

// CancelDelegationToken ends t before its time.
func (c *Client) CancelDelegationToken(ctx context.Context, t *hadoopcommon.TokenProto) error {
	return c.c.Call(ctx, "cancelDelegationToken", &hadoopcommon.CancelDelegationTokenRequestProto{Token: t}, &hadoopcommon.CancelDelegationTokenResponseProto{})
}

// Delete removes path (with what it holds when recursive) and tells
// whether there was anything to remove.
func (c *Client) Delete(ctx context.Context, path string, recursive bool) (bool, error) {
	resp := &hadoophdfs.DeleteResponseProto{}
	if err := c.c.Call(ctx, "delete", &hadoophdfs.DeleteRequestProto{Src: proto.String(path), Recursive: proto.Bool(recursive)}, resp); err != nil {
		return false, err
	}
	return resp.GetResult(), nil
}

// Close closes the connection.
func (c *Client) Close() error { return c.c.Close() }
