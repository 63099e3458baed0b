package yarn

import (
	"context"
	"errors"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/ipc"
)

// The Java protocol names calls declare, and the token kinds that open them.
const (
	ApplicationClientProtocol   = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB"
	ApplicationMasterProtocol   = "org.apache.hadoop.yarn.api.ApplicationMasterProtocolPB"
	ContainerManagementProtocol = "org.apache.hadoop.yarn.api.ContainerManagementProtocolPB"

	AMRMTokenKind = "YARN_AM_RM_TOKEN"
	NMTokenKind   = "NMToken"
)

// idempotence says whether a call may be repeated when its connection broke
// after it was sent: true for reads, false for anything that changes state.
type idempotence bool

const (
	readOnly idempotence = true
	mutating idempotence = false
)

// invoke calls method and returns its typed response. A read is repeated
// once on a fresh connection if the first was lost in flight.
func invoke[Resp any, PResp interface {
	*Resp
	proto.Message
}](ctx context.Context, c *ipc.Client, method string, req proto.Message, kind idempotence) (PResp, error) {
	resp := PResp(new(Resp))
	err := c.Call(ctx, method, req, resp)
	if err != nil && kind == readOnly && errors.Is(err, ipc.ErrConnectionLost) {
		resp = PResp(new(Resp))
		err = c.Call(ctx, method, req, resp)
	}
	if err != nil {
		return nil, err
	}
	return resp, nil
}

func newClient(addrs []string, opts ipc.Options, protocol, tokenKind string) (*ipc.Client, error) {
	opts.Protocol = protocol
	if opts.Auth.TokenKind == "" {
		opts.Auth.TokenKind = tokenKind
	}
	return ipc.NewClient(addrs, opts)
}
