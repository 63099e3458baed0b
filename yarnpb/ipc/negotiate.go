package ipc

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/sasl"
)

// ErrAuthentication wraps every failure of the SASL exchange that is not the
// server's own exception.
var ErrAuthentication = errors.New("SASL authentication failed")

func authError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrAuthentication, fmt.Sprintf(format, args...))
}

// saslHeader precedes every SASL message, as Hadoop's client sends it: call id
// -33, no retry count, no client id.
func saslHeader() *hadoopcommon.RpcRequestHeaderProto {
	return &hadoopcommon.RpcRequestHeaderProto{
		RpcKind:    hadoopcommon.RpcKindProto_RPC_PROTOCOL_BUFFER.Enum(),
		RpcOp:      hadoopcommon.RpcRequestHeaderProto_RPC_FINAL_PACKET.Enum(),
		CallId:     proto.Int32(saslCallID),
		ClientId:   []byte{},
		RetryCount: proto.Int32(-1),
	}
}

// negotiation is the outcome of the SASL exchange.
type negotiation struct {
	method string     // SIMPLE, TOKEN or KERBEROS
	layer  sasl.Layer // nil unless integrity or privacy was negotiated
}

// negotiate runs the client side of Hadoop's SASL exchange on rw, which is
// past the preamble:
//
//	client NEGOTIATE  ->  server NEGOTIATE (the auths it accepts; DIGEST-MD5's
//	                      first challenge rides along)
//	client INITIATE   ->  server CHALLENGE ... client RESPONSE ...
//	                  ->  server SUCCESS (with the mechanism's final proof)
//
// A server without security answers SUCCESS at once: the connection is SIMPLE.
func negotiate(rw io.ReadWriter, auth *Auth, addr string, resolved net.Addr, maxFrame int) (negotiation, error) {
	if err := writeSASL(rw, &hadoopcommon.RpcSaslProto{State: hadoopcommon.RpcSaslProto_NEGOTIATE.Enum()}); err != nil {
		return negotiation{}, err
	}
	var mech sasl.Mechanism
	var method string
	for {
		msg, err := readSASL(rw, maxFrame)
		if err != nil {
			return negotiation{}, err
		}
		switch msg.GetState() {
		case hadoopcommon.RpcSaslProto_NEGOTIATE:
			if mech != nil {
				return negotiation{}, authError("server sent NEGOTIATE twice")
			}
			offer, m, err := choose(msg.GetAuths(), auth, addr, resolved)
			if err != nil {
				return negotiation{}, err
			}
			method = offer.GetMethod()
			reply := &hadoopcommon.RpcSaslProto{
				State: hadoopcommon.RpcSaslProto_INITIATE.Enum(),
				Auths: []*hadoopcommon.RpcSaslProto_SaslAuth{withoutChallenge(offer)},
			}
			if method == MethodSimple {
				// The server lets us in as SIMPLE; it sends nothing more.
				return negotiation{method: MethodSimple}, writeSASL(rw, reply)
			}
			mech = m
			if reply.Token, err = mech.Step(offer.GetChallenge()); err != nil {
				return negotiation{}, authError("%v", err)
			}
			if reply.Token == nil {
				reply.Token = []byte{}
			}
			if err := writeSASL(rw, reply); err != nil {
				return negotiation{}, err
			}
		case hadoopcommon.RpcSaslProto_CHALLENGE:
			if mech == nil {
				return negotiation{}, authError("server sent a challenge before negotiating")
			}
			if msg.Token == nil {
				return negotiation{}, authError("server challenge carries no token")
			}
			resp, err := mech.Step(msg.Token)
			if err != nil {
				return negotiation{}, authError("%v", err)
			}
			if resp == nil {
				resp = []byte{}
			}
			reply := &hadoopcommon.RpcSaslProto{State: hadoopcommon.RpcSaslProto_RESPONSE.Enum(), Token: resp}
			if err := writeSASL(rw, reply); err != nil {
				return negotiation{}, err
			}
		case hadoopcommon.RpcSaslProto_SUCCESS:
			if mech == nil {
				return negotiation{method: MethodSimple}, nil
			}
			if err := checkSuccess(mech, msg.Token); err != nil {
				return negotiation{}, err
			}
			return negotiation{method: method, layer: mech.Layer()}, nil
		default:
			return negotiation{}, authError("unexpected SASL state %v", msg.GetState())
		}
	}
}

// checkSuccess checks the server's SUCCESS to mech's exchange: its final
// token is the server's proof (DIGEST-MD5's rspauth), checked so that a
// phony SUCCESS cannot end the exchange early, and mech must be complete.
func checkSuccess(mech sasl.Mechanism, token []byte) error {
	if token != nil {
		resp, err := mech.Step(token)
		if err != nil {
			return authError("%v", err)
		}
		if len(resp) > 0 {
			return authError("%s wants to answer the server's SUCCESS", mech.Name())
		}
	}
	if !mech.Complete() {
		return authError("server declared SUCCESS before %s completed", mech.Name())
	}
	return nil
}

// choose picks the first of the server's offers this client can answer.
func choose(offers []*hadoopcommon.RpcSaslProto_SaslAuth, auth *Auth, addr string, resolved net.Addr) (*hadoopcommon.RpcSaslProto_SaslAuth, sasl.Mechanism, error) {
	var names []string
	for _, o := range offers {
		names = append(names, o.GetMethod()+"/"+o.GetMechanism())
		switch o.GetMethod() {
		case MethodSimple:
			return o, nil, nil
		case MethodToken:
			if o.GetMechanism() != "DIGEST-MD5" {
				continue
			}
			if t := auth.token(addr, resolved); t != nil {
				return o, tokenMechanism(t, o, auth.qops()), nil
			}
		case MethodKerberos:
			if auth.Kerberos != nil {
				m, err := auth.Kerberos(o, addr)
				return o, m, err
			}
		}
	}
	have := "no token"
	if auth.TokenKind != "" {
		have = fmt.Sprintf("%d token(s), wanted kind %s", len(auth.Tokens), auth.TokenKind)
	}
	return nil, nil, authError("server %s accepts [%s]; this client has %s and no Kerberos", addr, strings.Join(names, ", "), have)
}

func withoutChallenge(o *hadoopcommon.RpcSaslProto_SaslAuth) *hadoopcommon.RpcSaslProto_SaslAuth {
	c := proto.Clone(o).(*hadoopcommon.RpcSaslProto_SaslAuth)
	c.Challenge = nil
	return c
}

func writeSASL(w io.Writer, msg *hadoopcommon.RpcSaslProto) error {
	frame, err := appendFrame(nil, saslHeader(), msg)
	if err != nil {
		return err
	}
	_, err = w.Write(frame)
	return err
}

// readSASL reads the server's next SASL message; a server exception ends
// the exchange as a *RemoteError.
func readSASL(r io.Reader, maxFrame int) (*hadoopcommon.RpcSaslProto, error) {
	frame, err := readFrame(r, maxFrame)
	if err != nil {
		return nil, fmt.Errorf("reading the server's SASL reply: %w", err)
	}
	header := &hadoopcommon.RpcResponseHeaderProto{}
	rest, err := unmarshalDelimited(frame, header)
	if err != nil {
		return nil, err
	}
	if header.GetStatus() != hadoopcommon.RpcResponseHeaderProto_SUCCESS {
		return nil, remoteError(header)
	}
	if header.GetCallId() != uint32(saslCallIDUnsigned) {
		return nil, authError("non-SASL response (call id %d) during negotiation", header.GetCallId())
	}
	msg := &hadoopcommon.RpcSaslProto{}
	if rest, err = unmarshalDelimited(rest, msg); err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, malformed("%d bytes after the SASL message", len(rest))
	}
	return msg, nil
}

func remoteError(h *hadoopcommon.RpcResponseHeaderProto) *RemoteError {
	return &RemoteError{
		Class:   h.GetExceptionClassName(),
		Message: h.GetErrorMsg(),
		Code:    h.GetErrorDetail(),
		Fatal:   h.GetStatus() == hadoopcommon.RpcResponseHeaderProto_FATAL,
	}
}
