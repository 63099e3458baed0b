// Package sasl holds the SASL client mechanisms Hadoop's RPC authenticates
// with, behind one small interface that the IPC client drives: DIGEST-MD5
// for tokens (RFC 2831, with the integrity and confidentiality layers that
// hadoop.rpc.protection=integrity|privacy require). Kerberos (GSSAPI) plugs
// in behind the same interface.
//
// The IPC client's loop, for a token:
//
//	m := sasl.NewDigestMD5(cfg) // cfg from sasl.TokenConfig, QOPs set
//	resp, err := m.Step(challengeFromNegotiate)
//	// send resp (INITIATE); receive CHALLENGE or SUCCESS with a token
//	_, err = m.Step(token) // checks the server's rspauth
//	if m.Complete() { layer := m.Layer() } // nil: packets travel plain
//
// Once a Layer is in place every packet is wrapped both ways (RpcSaslProto
// state WRAP). Errors wrap ErrChallenge, ErrNegotiation, ErrServerProof or
// ErrPacket.
//
// For Kerberos, NewGSSAPI takes the service ticket and session key the
// caller got for the server's principal (gokrb5's
// cl.GetServiceTicket(spn)), with the client's name and realm: its first
// Step (nil) is the AP-REQ for INITIATE, its second answers the server's
// security layer offer with exactly one layer its QOPs accept, and SUCCESS
// brings no token. The JDK's own GSSAPI client and server (what Hadoop
// runs) recorded the vectors in testdata/gssapi it is tested against.
//
// For Kerberos, the server a client talks to must be the one its
// configuration names: CheckServer compares a KERBEROS offer
// (OfferedPrincipal) with the protocol key's principal, `_HOST` expanded
// (ExpandHost), or its ".pattern" (Glob), as Hadoop's SaslRpcClient does;
// refusals wrap ErrServerPrincipal.
package sasl
