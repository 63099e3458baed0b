package ipc

import (
	"net"
	"strings"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/sasl"
)

// Hadoop's names for the ways a connection authenticates (SaslAuth.method).
const (
	MethodSimple   = "SIMPLE"
	MethodToken    = "TOKEN"
	MethodKerberos = "KERBEROS"
)

// Auth says how a client's connections authenticate. The server lists what
// it accepts; the first of those the client can answer is used, as Hadoop's
// client does.
type Auth struct {
	// User is the user name a SIMPLE (or KERBEROS) connection acts as.
	User string
	// TokenKind selects which of Tokens a TOKEN (DIGEST-MD5) connection
	// offers: YARN_AM_RM_TOKEN to the scheduler, NMToken to a NodeManager.
	TokenKind string
	Tokens    []*hadoopcommon.TokenProto
	// QOPs are the qualities of protection the client accepts, in order of
	// preference (hadoop.rpc.protection). Empty means any the server offers,
	// strongest first.
	QOPs []sasl.QOP
	// Kerberos answers the server's KERBEROS (GSSAPI) offer; nil declines
	// it. The GSSAPI mechanism plugs in here.
	Kerberos func(offer *hadoopcommon.RpcSaslProto_SaslAuth, serverAddr string) (sasl.Mechanism, error)
}

// usesSASL tells whether connections open with SASL at all. Like Hadoop's
// client, a client with neither tokens nor Kerberos skips it and declares
// its user in the connection context.
func (a *Auth) usesSASL() bool {
	return a.Kerberos != nil || (a.TokenKind != "" && len(a.Tokens) > 0)
}

func (a *Auth) qops() []sasl.QOP {
	if len(a.QOPs) > 0 {
		return a.QOPs
	}
	return []sasl.QOP{sasl.AuthConf, sasl.AuthInt, sasl.Auth}
}

// token picks the token for the server at addr: of TokenKind, preferring
// one whose service names addr (as dialed, or as the resolved ip:port Hadoop
// writes into services; a comma-separated list is HA's form); failing that,
// the only token of the kind, since the server judges it anyway.
func (a *Auth) token(addr string, resolved net.Addr) *hadoopcommon.TokenProto {
	names := map[string]bool{addr: true}
	if resolved != nil {
		names[resolved.String()] = true
	}
	var ofKind []*hadoopcommon.TokenProto
	for _, t := range a.Tokens {
		if t.GetKind() != a.TokenKind {
			continue
		}
		ofKind = append(ofKind, t)
		for _, s := range strings.Split(t.GetService(), ",") {
			if names[strings.TrimSpace(s)] {
				return t
			}
		}
	}
	if len(ofKind) == 1 {
		return ofKind[0]
	}
	return nil
}
