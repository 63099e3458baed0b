package sasl

import (
	"bytes"
	"encoding/asn1"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/types"
)

// The transcripts in testdata/gssapi were recorded from the JDK's own
// GSSAPI SASL client and server (javax.security.sasl: GssKrb5Client and
// GssKrb5Server of OpenJDK 17.0.15, as Hadoop's RPC uses them) by a
// throwaway Java program that is not part of the repository. It started
// Hadoop's MiniKdc 3.5.0 (Apache Kerby 2.0.3) with AES keys, made
// principals hadoop/localhost and alice with keytabs and logged both in
// from them (Krb5LoginModule), and for each enctype (aes128-cts-hmac-sha1-96
// and aes256-cts-hmac-sha1-96, forced through default_tkt_enctypes,
// default_tgs_enctypes and permitted_enctypes in krb5.conf) and each
// client qop (auth-conf, auth-int, auth) ran
// Sasl.createSaslClient({"GSSAPI"}, null, "hadoop", "localhost",
// {qop: QOP, server_auth: "false"}) against
// Sasl.createSaslServer("GSSAPI", "hadoop", "localhost",
// {qop: "auth-conf,auth-int,auth"}): the client's initial token, the
// server's layer offer, the client's choice. The client asks for no mutual
// authentication, as Spindle's does, so the server's offer is its first
// token. With a layer agreed it then wrapped seven random messages (0 to
// 1000 bytes) each way, checking the other side unwrapped them, and wrote
// it all as JSON, binary as hex, with the service's long-term keys from its
// keytab: with them a test decrypts the ticket in the initial token for the
// session key, then the authenticator for the sequence number and the
// initiator subkey the JDK puts there, under which its tokens are made.
type gssTranscript struct {
	JDK           string `json:"jdk"`
	KDC           string `json:"kdc"`
	Enctype       string `json:"enctype"`
	ClientQOP     QOP    `json:"client_qop"`
	ServerQOP     string `json:"server_qop"`
	NegotiatedQOP QOP    `json:"negotiated_qop"`
	ServiceKeys   []struct {
		Type int32  `json:"type"`
		Key  string `json:"key"`
	} `json:"service_keys"`
	Initiate string `json:"initiate"`
	Offer    string `json:"offer"`
	Choice   string `json:"choice"`
	// The JDK's Sasl.RAW_SEND_SIZE: the most plaintext it wraps at once.
	ClientRawSendSize int          `json:"client_raw_send_size"`
	ClientToServer    []jdkMessage `json:"client_to_server"`
	ServerToClient    []jdkMessage `json:"server_to_client"`
}

// jdkGSSContext is what the JDK's acceptor derived from the recorded
// initial token: the key of its wrap tokens and the first sequence number
// both ways.
type jdkGSSContext struct {
	key types.EncryptionKey
	seq uint64
}

func loadGSSTranscripts(t *testing.T) map[string]*gssTranscript {
	t.Helper()
	files, err := filepath.Glob("testdata/gssapi/*.json")
	if err != nil || len(files) != 6 {
		t.Fatalf("want 6 transcripts in testdata/gssapi, got %d (%v)", len(files), err)
	}
	trs := map[string]*gssTranscript{}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var tr gssTranscript
		if err := json.Unmarshal(b, &tr); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		trs[strings.TrimSuffix(filepath.Base(file), ".json")] = &tr
	}
	return trs
}

// parseInitialToken checks the GSS framing of an initial context token
// (RFC 2743 §3.1: [APPLICATION 0] { krb5 OID, TOK_ID 01 00, AP-REQ }) and
// returns its AP-REQ.
func parseInitialToken(t *testing.T, token []byte) messages.APReq {
	t.Helper()
	var outer asn1.RawValue
	rest, err := asn1.Unmarshal(token, &outer)
	if err != nil || len(rest) > 0 || outer.Class != asn1.ClassApplication || outer.Tag != 0 || !outer.IsCompound {
		t.Fatalf("the initial token is not one [APPLICATION 0]: %v, %d bytes after it", err, len(rest))
	}
	head := append(append([]byte{}, krb5OID...), 0x01, 0x00)
	if !bytes.HasPrefix(outer.Bytes, head) {
		t.Fatalf("the initial token does not carry the krb5 OID and TOK_ID 01 00: %x", outer.Bytes[:min(len(outer.Bytes), len(head))])
	}
	var req messages.APReq
	if err := req.Unmarshal(outer.Bytes[len(head):]); err != nil {
		t.Fatalf("the AP-REQ: %v", err)
	}
	return req
}

// acceptJDK does what the JDK's acceptor did with the recorded initial
// token: decrypts the ticket with the service's key, then the
// authenticator with the ticket's session key.
func acceptJDK(t *testing.T, tr *gssTranscript) (jdkGSSContext, messages.APReq) {
	t.Helper()
	req := parseInitialToken(t, unhex(t, tr.Initiate))
	var decrypted bool
	for _, k := range tr.ServiceKeys {
		if k.Type == req.Ticket.EncPart.EType {
			if err := req.Ticket.Decrypt(types.EncryptionKey{KeyType: k.Type, KeyValue: unhex(t, k.Key)}); err != nil {
				t.Fatalf("the ticket: %v", err)
			}
			decrypted = true
		}
	}
	if !decrypted {
		t.Fatalf("no service key of the ticket's enctype %d", req.Ticket.EncPart.EType)
	}
	session := req.Ticket.DecryptedEncPart.Key
	if err := req.DecryptAuthenticator(session); err != nil {
		t.Fatalf("the authenticator: %v", err)
	}
	key := session
	if len(req.Authenticator.SubKey.KeyValue) > 0 {
		key = req.Authenticator.SubKey
	}
	return jdkGSSContext{key: key, seq: uint64(req.Authenticator.SeqNumber)}, req
}

var enctypeNumbers = map[string]int32{"aes128-cts-hmac-sha1-96": 17, "aes256-cts-hmac-sha1-96": 18}

// TestJDKGSSAPITranscripts plays the client's part of each recorded
// exchange, in the state the JDK's client was in after its AP-REQ (its key
// and sequence number): it must answer the JDK server's offer with the JDK
// client's token byte for byte (checksums are deterministic), unwrap the
// JDK server's messages, wrap checksummed messages into the JDK client's
// tokens byte for byte, and seal them into tokens that read back as the
// JDK client's do. An acceptor written from RFC 4121 must reproduce the
// JDK server's offer and read the JDK client's sealed tokens, which checks
// the other direction of krb5Wrapper.
func TestJDKGSSAPITranscripts(t *testing.T) {
	for name, tr := range loadGSSTranscripts(t) {
		t.Run(name, func(t *testing.T) {
			ctx, req := acceptJDK(t, tr)
			if ctx.key.KeyType != enctypeNumbers[tr.Enctype] {
				t.Fatalf("the context's key is of enctype %d, the transcript says %s", ctx.key.KeyType, tr.Enctype)
			}
			if flags := binary.LittleEndian.Uint32(req.Authenticator.Cksum.Checksum[20:]); flags&0x02 != 0 {
				t.Fatalf("the JDK client asked for mutual authentication (GSS flags %#x): the transcript is not of Spindle's exchange", flags)
			}

			// The offer is the acceptor's checksummed token of all three
			// layers and the JDK's default 64 KiB buffer.
			acc, err := newKrb5Wrapper(ctx.key, true, ctx.seq, ctx.seq)
			if err != nil {
				t.Fatal(err)
			}
			offer, _ := acc.wrap([]byte{layerNone | layerIntegrity | layerPrivacy, 0x01, 0x00, 0x00}, false)
			if !bytes.Equal(offer, unhex(t, tr.Offer)) {
				t.Fatalf("the JDK server's offer is %s, the acceptor here writes %x", tr.Offer, offer)
			}

			w, err := newKrb5Wrapper(ctx.key, false, ctx.seq, ctx.seq)
			if err != nil {
				t.Fatal(err)
			}
			m := &gssapi{qops: []QOP{tr.ClientQOP}, step: 1, wrapper: w}
			choice, err := m.Step(offer)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(choice, unhex(t, tr.Choice)) {
				t.Fatalf("the choice differs from the JDK client's:\n got %x\nwant %s", choice, tr.Choice)
			}
			if _, err := acc.unwrap(choice, false); err != nil {
				t.Fatalf("the acceptor here does not read the choice: %v", err)
			}
			if !m.Complete() {
				t.Fatal("not complete after the choice")
			}
			l := m.Layer()
			if tr.NegotiatedQOP == Auth {
				if l != nil {
					t.Fatal("qop auth negotiated a Layer")
				}
				return
			}
			if l == nil {
				t.Fatalf("qop %s negotiated no Layer", tr.NegotiatedQOP)
			}
			if got := l.(SendLimiter).MaxSend(); got <= 0 || got > tr.ClientRawSendSize {
				t.Errorf("MaxSend %d, want at most the JDK client's raw send size %d", got, tr.ClientRawSendSize)
			}
			seal := tr.NegotiatedQOP == AuthConf
			for i, msg := range tr.ServerToClient {
				got, err := l.Unwrap(unhex(t, msg.Wrapped))
				if err != nil || !bytes.Equal(got, unhex(t, msg.Plain)) {
					t.Errorf("Unwrap of server message %d = %x, %v\nwant %s", i, got, err, msg.Plain)
				}
			}
			// ours reads this client's tokens, a sequence number behind acc.
			ours, _ := newKrb5Wrapper(ctx.key, true, ctx.seq+1, ctx.seq+1)
			for i, msg := range tr.ClientToServer {
				plain, jdk := unhex(t, msg.Plain), unhex(t, msg.Wrapped)
				got, err := l.Wrap(plain)
				if err != nil {
					t.Fatal(err)
				}
				if !seal {
					if !bytes.Equal(got, jdk) {
						t.Errorf("Wrap of client message %d = %x\nwant %x", i, got, jdk)
					}
					continue
				}
				// A sealed token has a random confounder: the JDK's and
				// this client's differ but for the header and length, and
				// both must decrypt to the message.
				if len(got) != len(jdk) || !bytes.Equal(got[:wrapHeaderLen], jdk[:wrapHeaderLen]) {
					t.Errorf("sealed client message %d: %d bytes starting %x; the JDK's, %d starting %x", i, len(got), got[:wrapHeaderLen], len(jdk), jdk[:wrapHeaderLen])
				}
				if back, err := acc.unwrap(jdk, true); err != nil || !bytes.Equal(back, plain) {
					t.Errorf("the JDK's sealed client message %d reads %x, %v", i, back, err)
				}
				if back, err := ours.unwrap(got, true); err != nil || !bytes.Equal(back, plain) {
					t.Errorf("this client's sealed message %d reads %x, %v", i, back, err)
				}
			}
		})
	}
}

// TestJDKGSSAPITampering: a change to any byte of a JDK server's token,
// checksummed or sealed, is refused, and the token itself is accepted
// once, in its turn: never again, never out of order, never as the other
// side's.
func TestJDKGSSAPITampering(t *testing.T) {
	trs := loadGSSTranscripts(t)
	for _, name := range []string{"aes256-cts-hmac-sha1-96-auth-int", "aes128-cts-hmac-sha1-96-auth-conf"} {
		t.Run(name, func(t *testing.T) {
			tr := trs[name]
			ctx, _ := acceptJDK(t, tr)
			seal := tr.NegotiatedQOP == AuthConf
			const k = 2 // the third message: 5 bytes
			token := unhex(t, tr.ServerToClient[k].Wrapped)
			due := ctx.seq + 1 + k
			client, _ := newKrb5Wrapper(ctx.key, false, ctx.seq, due)
			// Flipping the low bit of the RRC rotates by 1 or 256 bytes,
			// which no body here is a divisor of: RRC is outside the
			// checksum, but a rotation of a whole body would be none.
			for i := range token {
				bad := append([]byte{}, token...)
				bad[i] ^= 0x01
				if got, err := client.unwrap(bad, seal); err == nil {
					t.Errorf("byte %d flipped: accepted as %x", i, got)
				}
			}
			early, _ := newKrb5Wrapper(ctx.key, false, ctx.seq, due-1)
			if _, err := early.unwrap(token, seal); err == nil || !strings.Contains(err.Error(), "sequence number") {
				t.Errorf("a token ahead of its turn: %v", err)
			}
			if got, err := client.unwrap(token, seal); err != nil || !bytes.Equal(got, unhex(t, tr.ServerToClient[k].Plain)) {
				t.Fatalf("the token itself: %x, %v", got, err)
			}
			if _, err := client.unwrap(token, seal); err == nil || !strings.Contains(err.Error(), "sequence number") {
				t.Errorf("the token replayed: %v", err)
			}
			mirror, _ := newKrb5Wrapper(ctx.key, true, ctx.seq, due)
			if _, err := mirror.unwrap(token, seal); err == nil {
				t.Error("an acceptor accepted the acceptor's own token")
			}
		})
	}
}

// TestGSSAPILayerChoice runs every offer of the three layers against every
// preference list a client can have: the answer names exactly one layer,
// the first of the client's list the server offers (the strongest offered
// when the list is empty), with a 64 KiB buffer for a layer and none
// without; or, with nothing in common, an error in hadoop.rpc.protection's
// words.
func TestGSSAPILayerChoice(t *testing.T) {
	lists := [][]QOP{nil}
	var perms func(prefix, rest []QOP)
	perms = func(prefix, rest []QOP) {
		for i, q := range rest {
			list := append(append([]QOP{}, prefix...), q)
			lists = append(lists, list)
			others := append(append([]QOP{}, rest[:i]...), rest[i+1:]...)
			perms(list, others)
		}
	}
	perms(nil, []QOP{Auth, AuthInt, AuthConf})
	if len(lists) != 16 {
		t.Fatalf("%d preference lists, want 16", len(lists))
	}
	words := map[byte]string{layerNone: "authentication", layerIntegrity: "integrity", layerPrivacy: "privacy"}
	for offered := byte(0); offered < 8; offered++ {
		for _, qops := range lists {
			var want byte
			prefs := qops
			if prefs == nil {
				prefs = []QOP{AuthConf, AuthInt, Auth}
			}
			for _, q := range prefs {
				if bit := layerOf[q].bit; offered&bit != 0 {
					want = bit
					break
				}
			}
			w, _ := newKrb5Wrapper(testKey, false, 77, 77)
			acc, _ := newKrb5Wrapper(testKey, true, 77, 77)
			m := &gssapi{qops: qops, step: 1, wrapper: w}
			offer, _ := acc.wrap([]byte{offered, 0x00, 0x40, 0x00}, false)
			answer, err := m.Step(offer)
			if want == 0 {
				if err == nil {
					t.Errorf("offer %03b, qops %v: answered %x", offered, qops, answer)
					continue
				}
				var have, accept []string
				for _, bit := range []byte{layerNone, layerIntegrity, layerPrivacy} {
					if offered&bit != 0 {
						have = append(have, words[bit])
					}
				}
				for _, q := range prefs {
					accept = append(accept, layerOf[q].words)
				}
				if msg := "the server offers [" + strings.Join(have, ", ") + "] and this client accepts [" + strings.Join(accept, ", ") + "]"; !strings.Contains(err.Error(), msg) {
					t.Errorf("offer %03b, qops %v: the refusal %q does not say %q", offered, qops, err, msg)
				}
				if m.Complete() {
					t.Errorf("offer %03b, qops %v: complete after a refusal", offered, qops)
				}
				continue
			}
			if err != nil {
				t.Errorf("offer %03b, qops %v: %v", offered, qops, err)
				continue
			}
			choice, err := acc.unwrap(answer, false)
			if err != nil {
				t.Fatal(err)
			}
			buf := []byte{0x01, 0x00, 0x00}
			if want == layerNone {
				buf = []byte{0, 0, 0}
			}
			if !bytes.Equal(choice, append([]byte{want}, buf...)) {
				t.Errorf("offer %03b, qops %v: chose %x, want %s", offered, qops, choice, words[want])
			}
			if (m.Layer() == nil) != (want == layerNone) {
				t.Errorf("offer %03b, qops %v: layer %T for %s", offered, qops, m.Layer(), words[want])
			}
		}
	}
}
