package sasl

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/jcmturner/gokrb5/v8/iana/nametype"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/types"
)

// testKey is an aes128-cts-hmac-sha1-96 session key.
var testKey = types.EncryptionKey{KeyType: 17, KeyValue: []byte("0123456789abcdef")}

func testTicket() messages.Ticket {
	return messages.Ticket{TktVNO: 5, Realm: "EXAMPLE.COM", SName: types.NewPrincipalName(nametype.KRB_NT_SRV_INST, "hadoop/localhost"),
		EncPart: types.EncryptedData{EType: 17, KVNO: 1, Cipher: []byte("the service's part, opaque to the client")}}
}

// acceptorOf plays Hadoop's server: it reads the client's initial token
// and returns a wrapper for the acceptor's side of the context.
func acceptorOf(t *testing.T, token []byte) (*krb5Wrapper, messages.APReq) {
	t.Helper()
	prefix := append([]byte{0x60}, derLength(len(token)-1-len(derLength(len(token)-2)))...)
	if !bytes.HasPrefix(token, prefix) {
		t.Fatalf("the initial token starts %x, want an [APPLICATION 0] of the rest", token[:4])
	}
	rest := token[len(prefix):]
	if !bytes.HasPrefix(rest, append(append([]byte{}, krb5OID...), 0x01, 0x00)) {
		t.Fatalf("the initial token does not carry the krb5 OID and TOK_ID 01 00: %x", rest[:13])
	}
	var req messages.APReq
	if err := req.Unmarshal(rest[len(krb5OID)+2:]); err != nil {
		t.Fatalf("the AP-REQ: %v", err)
	}
	if err := req.DecryptAuthenticator(testKey); err != nil {
		t.Fatalf("the authenticator: %v", err)
	}
	seq := uint64(req.Authenticator.SeqNumber)
	acc, err := newKrb5Wrapper(testKey, true, seq, seq)
	if err != nil {
		t.Fatal(err)
	}
	return acc, req
}

// The whole exchange against an acceptor written from RFC 4121 and 4752:
// the AP-REQ asks for no mutual authentication and carries a sequence
// number; the client picks privacy from the offer; then packets both ways
// are sealed, in sequence, and any tampering, replay or unsealed packet
// is refused.
func TestGSSAPIExchangeAndPrivacyLayer(t *testing.T) {
	m, err := NewGSSAPI(testTicket(), testKey, types.NewPrincipalName(nametype.KRB_NT_PRINCIPAL, "alice"), "EXAMPLE.COM", []QOP{AuthConf, AuthInt})
	if err != nil {
		t.Fatal(err)
	}
	token, err := m.Step(nil)
	if err != nil {
		t.Fatal(err)
	}
	acc, req := acceptorOf(t, token)
	if types.IsFlagSet(&req.APOptions, 2) { // mutual-required
		t.Error("the AP-REQ asks for mutual authentication, which Hadoop's client does not")
	}
	sum := req.Authenticator.Cksum
	if sum.CksumType != 0x8003 || len(sum.Checksum) != 24 || binary.LittleEndian.Uint32(sum.Checksum[20:])&gssFlagConf == 0 {
		t.Errorf("the authenticator's GSS checksum %x does not ask for confidentiality", sum.Checksum)
	}
	if m.Complete() {
		t.Fatal("complete before the security layer was agreed")
	}
	offer, _ := acc.wrap([]byte{layerNone | layerIntegrity | layerPrivacy, 0x01, 0x00, 0x00}, false)
	answer, err := m.Step(offer)
	if err != nil {
		t.Fatal(err)
	}
	choice, err := acc.unwrap(answer, false)
	if err != nil {
		t.Fatalf("the client's choice: %v", err)
	}
	if !bytes.Equal(choice, []byte{layerPrivacy, 0x01, 0x00, 0x00}) {
		t.Fatalf("the client chose %x, want privacy with a 64 KiB buffer", choice)
	}
	if !m.Complete() || m.Layer() == nil {
		t.Fatal("not complete with a layer after the choice")
	}
	layer := m.Layer()
	if got := layer.(SendLimiter).MaxSend(); got != 65536-wrapOverhead {
		t.Errorf("MaxSend %d, want the server's 64 KiB less the wrap overhead", got)
	}
	for i, msg := range []string{"first call", "", strings.Repeat("x", 70000)} {
		w, err := layer.Wrap([]byte(msg))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(w, []byte("first call")) {
			t.Fatal("a sealed token carries its plaintext")
		}
		got, err := acc.unwrap(w, true)
		if err != nil || string(got) != msg {
			t.Fatalf("message %d: the acceptor read %q, %v", i, got, err)
		}
		back, _ := acc.wrap([]byte("reply "+msg), true)
		if got, err := layer.Unwrap(back); err != nil || string(got) != "reply "+msg {
			t.Fatalf("reply %d: the client read %q, %v", i, got, err)
		}
	}

	good, _ := acc.wrap([]byte("once"), true)
	tampered := append([]byte{}, good...)
	tampered[len(tampered)-20] ^= 1
	if _, err := layer.Unwrap(tampered); err == nil {
		t.Error("a tampered sealed token was accepted")
	}
	if _, err := layer.Unwrap(good); err != nil {
		t.Fatalf("the untampered token: %v", err)
	}
	if _, err := layer.Unwrap(good); err == nil || !strings.Contains(err.Error(), "sequence number") {
		t.Errorf("a replayed token: %v", err)
	}
	plain, _ := acc.wrap([]byte("in the clear"), false)
	if _, err := layer.Unwrap(plain); err == nil || !strings.Contains(err.Error(), "not sealed") {
		t.Errorf("a checksummed token where privacy was agreed: %v", err)
	}
}

// A receiver undoes any right rotation (RRC) the sender applied, as
// Microsoft's implementation sends them.
func TestWrapTokenRotation(t *testing.T) {
	send, _ := newKrb5Wrapper(testKey, true, 9, 9)
	recv, _ := newKrb5Wrapper(testKey, false, 9, 9)
	for _, seal := range []bool{true, false} {
		tok, _ := send.wrap([]byte("rotated payload"), seal)
		body := tok[wrapHeaderLen:]
		rrc := 28 % len(body)
		rotated := append(append(append([]byte{}, tok[:wrapHeaderLen]...), body[len(body)-rrc:]...), body[:len(body)-rrc]...)
		binary.BigEndian.PutUint16(rotated[6:], 28)
		if got, err := recv.unwrap(rotated, false); err != nil || string(got) != "rotated payload" {
			t.Errorf("sealed %v, RRC 28: %q, %v", seal, got, err)
		}
	}
}

func TestPickLayer(t *testing.T) {
	for _, tc := range []struct {
		offered byte
		qops    []QOP
		want    byte
		err     string
	}{
		{7, nil, layerPrivacy, ""},
		{3, nil, layerIntegrity, ""},
		{7, []QOP{AuthInt, AuthConf}, layerIntegrity, ""},
		{7, []QOP{Auth}, layerNone, ""},
		{4, []QOP{AuthInt, AuthConf}, layerPrivacy, ""},
		{4, []QOP{Auth, AuthInt}, 0, "the server offers [privacy] and this client accepts [authentication, integrity]"},
		{1, []QOP{AuthConf}, 0, "offers [authentication]"},
	} {
		got, err := pickLayer(tc.offered, tc.qops)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("pickLayer(%d, %v) = %d, %v; want an error saying %q", tc.offered, tc.qops, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("pickLayer(%d, %v) = %d, %v; want %d", tc.offered, tc.qops, got, err, tc.want)
		}
	}
}

// With authentication only the answer names no layer and a zero buffer
// (RFC 4752), and packets travel unwrapped.
func TestGSSAPIAuthenticationOnly(t *testing.T) {
	m, _ := NewGSSAPI(testTicket(), testKey, types.NewPrincipalName(nametype.KRB_NT_PRINCIPAL, "alice"), "EXAMPLE.COM", []QOP{Auth})
	token, _ := m.Step(nil)
	acc, _ := acceptorOf(t, token)
	offer, _ := acc.wrap([]byte{layerNone | layerPrivacy, 0x01, 0x00, 0x00}, false)
	answer, err := m.Step(offer)
	if err != nil {
		t.Fatal(err)
	}
	if choice, err := acc.unwrap(answer, false); err != nil || !bytes.Equal(choice, []byte{layerNone, 0, 0, 0}) {
		t.Fatalf("choice %x, %v; want none with a zero buffer", choice, err)
	}
	if !m.Complete() || m.Layer() != nil {
		t.Fatal("want complete, with no layer")
	}
}

func TestGSSAPIRefusesNonAESKeys(t *testing.T) {
	rc4 := types.EncryptionKey{KeyType: 23, KeyValue: make([]byte, 16)}
	if _, err := NewGSSAPI(testTicket(), rc4, types.NewPrincipalName(nametype.KRB_NT_PRINCIPAL, "alice"), "EXAMPLE.COM", nil); err == nil || !strings.Contains(err.Error(), "enctype 23") {
		t.Errorf("an rc4-hmac key: %v", err)
	}
}
