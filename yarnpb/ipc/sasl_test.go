package ipc_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/ipc/ipctest"
	"github.com/spindle-yarn/spindle/yarnpb/sasl"
)

// fakeMech is a two-step mechanism: it answers the challenge "hello" with
// "ready", then accepts the server's proof "proof". Its layer XORs and
// checksums, so a test can see that packets really were wrapped.
type fakeMech struct {
	step  int
	layer bool
}

func (m *fakeMech) Name() string { return "FAKE" }

func (m *fakeMech) Step(challenge []byte) ([]byte, error) {
	switch m.step {
	case 0:
		if string(challenge) != "hello" {
			return nil, fmt.Errorf("challenge %q", challenge)
		}
		m.step++
		return []byte("ready"), nil
	case 1:
		if string(challenge) != "proof" {
			return nil, fmt.Errorf("bad server proof %q", challenge)
		}
		m.step++
		return nil, nil
	}
	return nil, errors.New("exchange already complete")
}

func (m *fakeMech) Complete() bool { return m.step == 2 }

func (m *fakeMech) Layer() sasl.Layer {
	if m.layer {
		return xorLayer{}
	}
	return nil
}

type xorLayer struct{}

func (xorLayer) Wrap(p []byte) ([]byte, error) {
	out := make([]byte, len(p), len(p)+4)
	for i, b := range p {
		out[i] = b ^ 0x5A
	}
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(p)), nil
}

func (xorLayer) Unwrap(p []byte) ([]byte, error) {
	if len(p) < 4 {
		return nil, errors.New("short token")
	}
	out := make([]byte, len(p)-4)
	for i, b := range p[:len(p)-4] {
		out[i] = b ^ 0x5A
	}
	if crc32.ChecksumIEEE(out) != binary.BigEndian.Uint32(p[len(p)-4:]) {
		return nil, errors.New("checksum mismatch")
	}
	return out, nil
}

// fakeSASLServer plays the server's side with offers; proof is what it sends
// with SUCCESS. It records the client's INITIATE.
type fakeSASLServer struct {
	offers   []*hadoopcommon.RpcSaslProto_SaslAuth
	proof    string
	layer    bool
	fatal    *ipc.RemoteError
	initiate *hadoopcommon.RpcSaslProto
}

func (f *fakeSASLServer) run(rw io.ReadWriter) (sasl.Layer, error) {
	m, err := ipctest.ReadSASL(rw)
	if err != nil || m.GetState() != hadoopcommon.RpcSaslProto_NEGOTIATE {
		return nil, fmt.Errorf("want NEGOTIATE, got %v %v", m, err)
	}
	if f.fatal != nil {
		h := &hadoopcommon.RpcResponseHeaderProto{
			CallId: proto.Uint32(1<<32 - 33), Status: hadoopcommon.RpcResponseHeaderProto_FATAL.Enum(),
			ExceptionClassName: proto.String(f.fatal.Class), ErrorMsg: proto.String(f.fatal.Message),
		}
		rw.Write(ipctest.Frame(h))
		return nil, errors.New("refused")
	}
	if err := ipctest.WriteSASL(rw, &hadoopcommon.RpcSaslProto{State: hadoopcommon.RpcSaslProto_NEGOTIATE.Enum(), Auths: f.offers}); err != nil {
		return nil, err
	}
	if f.initiate, err = ipctest.ReadSASL(rw); err != nil {
		return nil, err
	}
	if string(f.initiate.GetToken()) != "ready" {
		return nil, fmt.Errorf("client answered %q", f.initiate.GetToken())
	}
	if err := ipctest.WriteSASL(rw, &hadoopcommon.RpcSaslProto{State: hadoopcommon.RpcSaslProto_SUCCESS.Enum(), Token: []byte(f.proof)}); err != nil {
		return nil, err
	}
	if f.layer {
		return xorLayer{}, nil
	}
	return nil, nil
}

func fakeOffer() *hadoopcommon.RpcSaslProto_SaslAuth {
	return &hadoopcommon.RpcSaslProto_SaslAuth{Method: proto.String("KERBEROS"), Mechanism: proto.String("FAKE"), Protocol: proto.String("rm"), ServerId: proto.String("host"), Challenge: []byte("hello")}
}

func saslClient(t *testing.T, addr string, layer bool) *ipc.Client {
	return newClient(t, []string{addr}, func(o *ipc.Options) {
		o.Auth.Kerberos = func(*hadoopcommon.RpcSaslProto_SaslAuth, string) (sasl.Mechanism, error) {
			return &fakeMech{layer: layer}, nil
		}
	})
}

func TestSASLWithASecurityLayerWrapsEveryCall(t *testing.T) {
	fs := &fakeSASLServer{offers: []*hadoopcommon.RpcSaslProto_SaslAuth{fakeOffer()}, proof: "proof", layer: true}
	srv := &ipctest.Server{Protocol: testProtocol, Handler: echo, SASL: fs.run}
	c := saslClient(t, srv.Start(t), true)
	// Large enough to need several WRAP chunks.
	big := strings.Repeat("x", 100<<10)
	got, err := call(context.Background(), c, "m", big)
	if err != nil {
		t.Fatal(err)
	}
	if got != "m:"+big {
		t.Fatalf("response of %d bytes, want the %d-byte echo", len(got), len(big)+2)
	}
	// The INITIATE names the chosen auth without the challenge it carried.
	auths := fs.initiate.GetAuths()
	if len(auths) != 1 || auths[0].GetMethod() != "KERBEROS" || auths[0].Challenge != nil {
		t.Fatalf("INITIATE auths = %v", auths)
	}
	// KERBEROS acts as the client's user; the server got the context
	// through the layer (or it could not have read it).
	if users := srv.Users(); len(users) != 1 || users[0] != "alice" {
		t.Fatalf("users %v", users)
	}
}

func TestSASLWrongServerProofIsRejected(t *testing.T) {
	fs := &fakeSASLServer{offers: []*hadoopcommon.RpcSaslProto_SaslAuth{fakeOffer()}, proof: "forged"}
	srv := &ipctest.Server{Protocol: testProtocol, Handler: echo, SASL: fs.run}
	c := saslClient(t, srv.Start(t), false)
	_, err := call(context.Background(), c, "m", "x")
	if !errors.Is(err, ipc.ErrAuthentication) || !strings.Contains(err.Error(), "bad server proof") {
		t.Fatalf("err = %v, want an authentication error about the proof", err)
	}
	if n := srv.Connections(); n != 1 {
		t.Fatalf("%d connections, want 1: a failed authentication is not retried", n)
	}
}

func TestSASLServerRefusalIsItsException(t *testing.T) {
	fs := &fakeSASLServer{fatal: &ipc.RemoteError{Class: "org.apache.hadoop.security.token.SecretManager$InvalidToken", Message: "token expired"}}
	srv := &ipctest.Server{Protocol: testProtocol, Handler: echo, SASL: fs.run}
	c := saslClient(t, srv.Start(t), false)
	_, err := call(context.Background(), c, "m", "x")
	if !errors.Is(err, ipc.ErrInvalidToken) {
		t.Fatalf("err = %v, want ErrInvalidToken", err)
	}
	// Refused credentials are not retried: they would be refused again.
	if n := srv.Connections(); n != 1 {
		t.Fatalf("%d connections, want 1", n)
	}
}

func TestSASLNoOfferTheClientCanAnswer(t *testing.T) {
	token := &hadoopcommon.RpcSaslProto_SaslAuth{Method: proto.String("TOKEN"), Mechanism: proto.String("DIGEST-MD5"), Challenge: []byte("c")}
	fs := &fakeSASLServer{offers: []*hadoopcommon.RpcSaslProto_SaslAuth{token}}
	srv := &ipctest.Server{Protocol: testProtocol, Handler: echo, SASL: fs.run}
	c := saslClient(t, srv.Start(t), false)
	_, err := call(context.Background(), c, "m", "x")
	if !errors.Is(err, ipc.ErrAuthentication) || !strings.Contains(err.Error(), "TOKEN/DIGEST-MD5") {
		t.Fatalf("err = %v, want one listing the server's offers", err)
	}
}

func TestSASLOfferOfSimpleFallsBack(t *testing.T) {
	simple := &hadoopcommon.RpcSaslProto_SaslAuth{Method: proto.String("SIMPLE"), Mechanism: proto.String("")}
	srv := &ipctest.Server{Protocol: testProtocol, Handler: echo, SASL: func(rw io.ReadWriter) (sasl.Layer, error) {
		if _, err := ipctest.ReadSASL(rw); err != nil {
			return nil, err
		}
		ipctest.WriteSASL(rw, &hadoopcommon.RpcSaslProto{State: hadoopcommon.RpcSaslProto_NEGOTIATE.Enum(), Auths: []*hadoopcommon.RpcSaslProto_SaslAuth{simple}})
		m, err := ipctest.ReadSASL(rw)
		if err != nil || m.GetState() != hadoopcommon.RpcSaslProto_INITIATE || m.GetAuths()[0].GetMethod() != "SIMPLE" {
			return nil, fmt.Errorf("want INITIATE SIMPLE, got %v", m)
		}
		return nil, nil
	}}
	c := saslClient(t, srv.Start(t), false)
	if got, err := call(context.Background(), c, "m", "x"); err != nil || got != "m:x" {
		t.Fatalf("call = %q, %v", got, err)
	}
	if users := srv.Users(); len(users) != 1 || users[0] != "alice" {
		t.Fatalf("a SIMPLE connection must name its user; server saw %v", users)
	}
}

func TestInsecureServerSwitchesSASLClientToSimple(t *testing.T) {
	srv := &ipctest.Server{Protocol: testProtocol, Handler: echo}
	c := saslClient(t, srv.Start(t), false)
	if got, err := call(context.Background(), c, "m", "x"); err != nil || got != "m:x" {
		t.Fatalf("call = %q, %v", got, err)
	}
}

func TestUnwrapFailureBreaksTheConnection(t *testing.T) {
	fs := &fakeSASLServer{offers: []*hadoopcommon.RpcSaslProto_SaslAuth{fakeOffer()}, proof: "proof", layer: true}
	srv := &ipctest.Server{Protocol: testProtocol, Handler: echo, SASL: func(rw io.ReadWriter) (sasl.Layer, error) {
		if _, err := fs.run(rw); err != nil {
			return nil, err
		}
		return corruptLayer{}, nil
	}}
	c := saslClient(t, srv.Start(t), true)
	_, err := call(context.Background(), c, "m", "x")
	if err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Fatalf("err = %v, want the layer's complaint", err)
	}
}

// corruptLayer reads the client's packets but answers with damaged ones.
type corruptLayer struct{ xorLayer }

func (corruptLayer) Wrap(p []byte) ([]byte, error) {
	w, _ := xorLayer{}.Wrap(p)
	w[0] ^= 0xFF
	return bytes.Clone(w), nil
}
