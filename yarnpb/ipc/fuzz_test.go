package ipc

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
)

// FuzzResponseFrame feeds arbitrary bytes to the path every response takes:
// frame, header, body. It must never panic, and never accept a frame longer
// than the limit.
func FuzzResponseFrame(f *testing.F) {
	ok, _ := appendFrame(nil, &hadoopcommon.RpcResponseHeaderProto{CallId: proto.Uint32(3), Status: hadoopcommon.RpcResponseHeaderProto_SUCCESS.Enum()},
		&hadoopcommon.UserInformationProto{EffectiveUser: proto.String("u")})
	bad, _ := appendFrame(nil, &hadoopcommon.RpcResponseHeaderProto{CallId: proto.Uint32(3), Status: hadoopcommon.RpcResponseHeaderProto_ERROR.Enum(),
		ExceptionClassName: proto.String("org.apache.hadoop.ipc.StandbyException"), ErrorMsg: proto.String("standby")})
	f.Add(ok)
	f.Add(bad)
	f.Add([]byte{0, 0, 0, 1, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		r := bytes.NewReader(in)
		for {
			frame, err := readFrame(r, 4096)
			if err != nil {
				return
			}
			if len(frame) > 4096 {
				t.Fatalf("accepted a frame of %d bytes over the limit", len(frame))
			}
			_, res, err := parseResponse(frame)
			if err != nil {
				return
			}
			if res.err == nil {
				unmarshalDelimited(res.body, &hadoopcommon.UserInformationProto{})
			}
		}
	})
}

// FuzzSASLReply feeds arbitrary bytes where the server's SASL replies go.
func FuzzSASLReply(f *testing.F) {
	ok, _ := appendFrame(nil, &hadoopcommon.RpcResponseHeaderProto{CallId: proto.Uint32(saslCallIDUnsigned), Status: hadoopcommon.RpcResponseHeaderProto_SUCCESS.Enum()},
		&hadoopcommon.RpcSaslProto{State: hadoopcommon.RpcSaslProto_NEGOTIATE.Enum(), Auths: []*hadoopcommon.RpcSaslProto_SaslAuth{
			{Method: proto.String("TOKEN"), Mechanism: proto.String("DIGEST-MD5"), Challenge: []byte(`realm="default",nonce="abc",qop="auth",charset=utf-8,algorithm=md5-sess`)}}})
	f.Add(ok)
	f.Fuzz(func(t *testing.T, in []byte) {
		readSASL(bytes.NewReader(in), 4096)
	})
}
