package sasl

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/jcmturner/gokrb5/v8/iana/chksumtype"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/types"
)

// GSSAPI over Kerberos (RFC 4752), the client side, as Hadoop's server
// (the JDK's GssKrb5Server) expects it:
//
//	client INITIATE  GSS initial context token: AP-REQ, no mutual auth
//	server CHALLENGE wrap(acceptor, checksummed): [layers offered][max buffer, 3 bytes]
//	client RESPONSE  wrap(initiator, checksummed): [the one layer chosen][max buffer]
//	server SUCCESS
//
// after which, with integrity or privacy, every packet both ways is a wrap
// token: checksummed, or sealed for privacy.

// The security layers of RFC 4752's negotiation, as bits.
const (
	layerNone      = 1
	layerIntegrity = 2
	layerPrivacy   = 4
)

// recvMaxBuffer is the largest wrapped message this client accepts, as it
// tells the server: the JDK's default. Hadoop's server wraps each whole
// response regardless, and the IPC reader takes any size up to its frame
// limit.
const recvMaxBuffer = 65536

// wrapOverhead bounds what a wrap token adds to its plaintext: the header,
// and for a sealed one the header's copy, the confounder and the HMAC
// (at most 16, 16 and 24 bytes for the AES enctypes).
const wrapOverhead = 16 + 16 + 16 + 24

// krb5OID is the Kerberos V5 GSS-API mechanism, 1.2.840.113554.1.2.2, DER.
var krb5OID = []byte{0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02}

// GSS-API context flags (RFC 4121 §4.1.1.1) the authenticator's checksum
// asks for: sequencing, integrity and confidentiality. Not mutual
// authentication: the JDK's client, and so Hadoop's, asks for it, and then
// the server's first CHALLENGE is an AP-REP that the client answers with an
// empty RESPONSE before the layer offer comes. The server does not require
// it, and the offer, checksummed under the session key, proves the server
// read the ticket all the same.
const (
	gssFlagSequence = 0x08
	gssFlagConf     = 0x10
	gssFlagInteg    = 0x20
)

type gssapi struct {
	ticket messages.Ticket
	key    types.EncryptionKey
	cname  types.PrincipalName
	realm  string
	qops   []QOP

	step    int // 0: AP-REQ to send; 1: the layer offer to answer; 2: done
	wrapper *krb5Wrapper
	layer   Layer
}

// NewGSSAPI starts a GSSAPI exchange with the service whose ticket and
// session key the caller got from the KDC (gokrb5's
// client.GetServiceTicket, after checking the server's principal), as
// cname@realm, accepting the qualities of protection qops in order of
// preference (empty: the strongest the server offers). Only AES session
// keys are supported.
func NewGSSAPI(ticket messages.Ticket, sessionKey types.EncryptionKey, cname types.PrincipalName, realm string, qops []QOP) (Mechanism, error) {
	if _, ok := rfc4121Etypes[sessionKey.KeyType]; !ok {
		return nil, fmt.Errorf("the service ticket's session key is of enctype %d, which has no RFC 4121 tokens: have the KDC issue AES keys (aes256-cts-hmac-sha1-96 or aes128-cts-hmac-sha1-96)", sessionKey.KeyType)
	}
	return &gssapi{ticket: ticket, key: sessionKey, cname: cname, realm: realm, qops: qops}, nil
}

func (g *gssapi) Name() string   { return "GSSAPI" }
func (g *gssapi) Complete() bool { return g.step == 2 }
func (g *gssapi) Layer() Layer   { return g.layer }

func (g *gssapi) Step(challenge []byte) ([]byte, error) {
	switch g.step {
	case 0:
		if len(challenge) > 0 {
			return nil, errors.New("GSSAPI: the server spoke before the client's AP-REQ")
		}
		return g.initialToken()
	case 1:
		return g.chooseLayer(challenge)
	}
	return nil, errors.New("GSSAPI: the server sent more after the security layer was agreed")
}

// initialToken is the GSS initial context token carrying the AP-REQ
// (RFC 2743 §3.1, RFC 4121 §4.1). The authenticator's sequence number
// starts both directions' wrap tokens: without mutual authentication the
// acceptor takes it as its own too (RFC 1964 §1.2.1.2), as the JDK does.
func (g *gssapi) initialToken() ([]byte, error) {
	auth, err := types.NewAuthenticator(g.realm, g.cname)
	if err != nil {
		return nil, fmt.Errorf("GSSAPI: %v", err)
	}
	sum := make([]byte, 24)
	binary.LittleEndian.PutUint32(sum[0:], 16) // the channel bindings' length: none, all zero
	binary.LittleEndian.PutUint32(sum[20:], gssFlagSequence|gssFlagConf|gssFlagInteg)
	auth.Cksum = types.Checksum{CksumType: chksumtype.GSSAPI, Checksum: sum}
	apReq, err := messages.NewAPReq(g.ticket, g.key, auth)
	if err != nil {
		return nil, fmt.Errorf("GSSAPI: building the AP-REQ: %v", err)
	}
	req, err := apReq.Marshal()
	if err != nil {
		return nil, fmt.Errorf("GSSAPI: %v", err)
	}
	seq := uint64(auth.SeqNumber)
	if g.wrapper, err = newKrb5Wrapper(g.key, false, seq, seq); err != nil {
		return nil, err
	}
	inner := append(append(append([]byte{}, krb5OID...), 0x01, 0x00), req...)
	g.step = 1
	return append(append([]byte{0x60}, derLength(len(inner))...), inner...), nil
}

// derLength encodes n as an ASN.1 DER length.
func derLength(n int) []byte {
	if n < 0x80 {
		return []byte{byte(n)}
	}
	var b []byte
	for ; n > 0; n >>= 8 {
		b = append([]byte{byte(n)}, b...)
	}
	return append([]byte{0x80 | byte(len(b))}, b...)
}

// chooseLayer reads the server's offer and answers with exactly one layer
// both sides accept.
func (g *gssapi) chooseLayer(challenge []byte) ([]byte, error) {
	offer, err := g.wrapper.unwrap(challenge, false)
	if err != nil {
		return nil, fmt.Errorf("GSSAPI: the server's security layer offer: %v", err)
	}
	if len(offer) != 4 {
		return nil, fmt.Errorf("GSSAPI: the server's security layer offer is %d bytes, want 4", len(offer))
	}
	offered, serverMax := offer[0], int(offer[1])<<16|int(offer[2])<<8|int(offer[3])
	chosen, err := pickLayer(offered, g.qops)
	if err != nil {
		return nil, err
	}
	reply := []byte{chosen, 0, 0, 0}
	if chosen != layerNone {
		// RFC 4752: with no layer the maximum must be 0.
		buf := uint32(recvMaxBuffer)
		reply[1], reply[2], reply[3] = byte(buf>>16), byte(buf>>8), byte(buf)
	}
	answer, err := g.wrapper.wrap(reply, false)
	if err != nil {
		return nil, fmt.Errorf("GSSAPI: %v", err)
	}
	if chosen != layerNone {
		g.layer = &gssLayer{w: g.wrapper, seal: chosen == layerPrivacy, maxSend: serverMax}
	}
	g.step = 2
	return answer, nil
}

// layerOf maps a quality of protection to its layer bit; words names it
// as hadoop.rpc.protection does.
var layerOf = map[QOP]struct {
	bit   byte
	words string
}{Auth: {layerNone, "authentication"}, AuthInt: {layerIntegrity, "integrity"}, AuthConf: {layerPrivacy, "privacy"}}

// pickLayer chooses the first of qops (strongest first when empty) whose
// layer the server offers.
func pickLayer(offered byte, qops []QOP) (byte, error) {
	if len(qops) == 0 {
		qops = []QOP{AuthConf, AuthInt, Auth}
	}
	var want, have []string
	for _, q := range qops {
		l, ok := layerOf[q]
		if !ok {
			return 0, fmt.Errorf("GSSAPI: unknown quality of protection %q", q)
		}
		if offered&l.bit != 0 {
			return l.bit, nil
		}
		want = append(want, l.words)
	}
	for _, q := range []QOP{Auth, AuthInt, AuthConf} {
		if offered&layerOf[q].bit != 0 {
			have = append(have, layerOf[q].words)
		}
	}
	return 0, fmt.Errorf("GSSAPI: the server offers [%s] and this client accepts [%s] (hadoop.rpc.protection): no protection in common",
		strings.Join(have, ", "), strings.Join(want, ", "))
}

// gssLayer protects packets after the exchange: every packet is a wrap
// token, sealed for privacy.
type gssLayer struct {
	w       *krb5Wrapper
	seal    bool
	maxSend int // the server's max buffer: the largest token it takes
}

func (l *gssLayer) Wrap(p []byte) ([]byte, error)   { return l.w.wrap(p, l.seal) }
func (l *gssLayer) Unwrap(p []byte) ([]byte, error) { return l.w.unwrap(p, l.seal) }

// MaxSend is the most plaintext one wrap may carry for its token to fit
// the server's max buffer (0: no bound offered).
func (l *gssLayer) MaxSend() int {
	if l.maxSend <= wrapOverhead {
		return 0
	}
	return l.maxSend - wrapOverhead
}
