package ipc_test

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"regexp"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/ipc/ipctest"
	"github.com/spindle-yarn/spindle/yarnpb/sasl"
)

// digestUsers is a server that offers TOKEN/DIGEST-MD5, records the token
// identifier each client answers with (the DIGEST username), and refuses.
type digestUsers struct {
	mu  sync.Mutex
	ids []string
}

var usernameDirective = regexp.MustCompile(`username="([^"]*)"`)

func (d *digestUsers) run(rw io.ReadWriter) (sasl.Layer, error) {
	if _, err := ipctest.ReadSASL(rw); err != nil {
		return nil, err
	}
	offer := &hadoopcommon.RpcSaslProto_SaslAuth{Method: proto.String("TOKEN"), Mechanism: proto.String("DIGEST-MD5"),
		Protocol: proto.String(""), ServerId: proto.String("default"),
		Challenge: []byte(`realm="default",nonce="bm9uY2U=",qop="auth",charset=utf-8,algorithm=md5-sess`)}
	ipctest.WriteSASL(rw, &hadoopcommon.RpcSaslProto{State: hadoopcommon.RpcSaslProto_NEGOTIATE.Enum(), Auths: []*hadoopcommon.RpcSaslProto_SaslAuth{offer}})
	m, err := ipctest.ReadSASL(rw)
	if err != nil {
		return nil, err
	}
	if u := usernameDirective.FindSubmatch(m.GetToken()); u != nil {
		id, _ := base64.StdEncoding.DecodeString(string(u[1]))
		d.mu.Lock()
		d.ids = append(d.ids, string(id))
		d.mu.Unlock()
	}
	rw.Write(ipctest.Frame(&hadoopcommon.RpcResponseHeaderProto{
		CallId: proto.Uint32(1<<32 - 33), Status: hadoopcommon.RpcResponseHeaderProto_FATAL.Enum(),
		ExceptionClassName: proto.String("org.apache.hadoop.security.token.SecretManager$InvalidToken"), ErrorMsg: proto.String("refused"),
	}))
	return nil, errors.New("refused")
}

func (d *digestUsers) last() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.ids) == 0 {
		return ""
	}
	return d.ids[len(d.ids)-1]
}

func tok(id, kind, service string) *hadoopcommon.TokenProto {
	return &hadoopcommon.TokenProto{Identifier: []byte(id), Password: []byte("pw-" + id), Kind: proto.String(kind), Service: proto.String(service)}
}

func TestTokenIsChosenByKindAndServiceAndCanBeReplaced(t *testing.T) {
	d := &digestUsers{}
	srv := &ipctest.Server{Protocol: testProtocol, Handler: echo, SASL: d.run}
	addr := srv.Start(t)
	c := newClient(t, []string{addr}, func(o *ipc.Options) {
		o.Auth.TokenKind = "YARN_AM_RM_TOKEN"
		o.Auth.Tokens = []*hadoopcommon.TokenProto{
			tok("nm", "NMToken", addr),                                // wrong kind
			tok("other-rm", "YARN_AM_RM_TOKEN", "10.0.0.9:8030"),      // wrong service
			tok("this-rm", "YARN_AM_RM_TOKEN", "10.0.0.8:8030,"+addr), // HA list naming this server
		}
	})
	if _, err := call(context.Background(), c, "m", "x"); !errors.Is(err, ipc.ErrInvalidToken) {
		t.Fatalf("err = %v, want the server's InvalidToken", err)
	}
	if got := d.last(); got != "this-rm" {
		t.Fatalf("client authenticated with token %q, want this-rm", got)
	}

	// A rolled token replaces the old one for the next connection.
	c.SetTokens([]*hadoopcommon.TokenProto{tok("rolled", "YARN_AM_RM_TOKEN", "")})
	call(context.Background(), c, "m", "x")
	if got := d.last(); got != "rolled" {
		t.Fatalf("after SetTokens the client authenticated with %q, want rolled", got)
	}
}
