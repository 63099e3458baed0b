package sasl

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// FuzzParseChallenge feeds arbitrary server messages to the parser and to
// a whole client Step. Nothing may panic; a challenge the client accepts
// must yield a response within the RFC's size that reads back with the
// server's nonce intact (the quoting round-trips). Seeds are in
// testdata/fuzz/FuzzParseChallenge.
func FuzzParseChallenge(f *testing.F) {
	f.Add([]byte(`realm="default",nonce="n",qop="auth-conf,auth-int,auth",charset=utf-8,cipher="3des,rc4,des,rc4-56,rc4-40",algorithm=md5-sess`))
	f.Fuzz(func(t *testing.T, b []byte) {
		parseRspauth(b)
		c, err := parseChallenge(b)
		if err == nil && (c.nonce == "" || c.maxbuf < minMaxbuf || c.maxbuf > maxMaxbuf) {
			t.Fatalf("accepted %q as %+v", b, c)
		}
		cfg := testConfig(AuthConf, AuthInt, Auth)
		resp, err := NewDigestMD5(cfg).Step(b)
		if err != nil {
			return
		}
		if len(resp) >= maxResponseLen {
			t.Fatalf("response of %d bytes", len(resp))
		}
		ds, err := parseDirectives(resp)
		if err != nil {
			t.Fatalf("own response %q does not parse: %v", resp, err)
		}
		for _, d := range ds {
			if d.name == "nonce" && d.value != c.nonce {
				t.Fatalf("nonce %q echoed as %q", c.nonce, d.value)
			}
		}
	})
}

// FuzzUnwrap feeds arbitrary packets to a fresh client layer of each kind
// (kind picks the qop and cipher). Nothing may panic, and a packet that is
// accepted must be exactly what the server side wraps its message into:
// every byte of a packet is checked. Seeds are in testdata/fuzz/FuzzUnwrap.
func FuzzUnwrap(f *testing.F) {
	for i, k := range layerKinds {
		_, server := layerPair(f, k.qop, k.cipher)
		p, _ := server.Wrap([]byte("hello, client"))
		f.Add(byte(i), p)
	}
	f.Fuzz(func(t *testing.T, kind byte, p []byte) {
		k := layerKinds[int(kind)%len(layerKinds)]
		client, server := layerPair(t, k.qop, k.cipher)
		msg, err := client.Unwrap(p)
		if err != nil {
			return
		}
		if want, _ := server.Wrap(msg); !bytes.Equal(p, want) {
			t.Fatalf("%s %s accepted %x for message %q, which wraps to %x", k.qop, k.cipher, p, msg, want)
		}
	})
}

// FuzzKrb5Unwrap feeds arbitrary packets to a client's Kerberos wrap
// layer, sealed or checksummed. Nothing may panic or be accepted unless
// its checksum or seal is the key's; what is accepted checksummed must be
// exactly the token the acceptor writes for it (a sealed one has a random
// confounder, so its integrity check stands for that).
func FuzzKrb5Unwrap(f *testing.F) {
	for _, seal := range []bool{true, false} {
		acc, _ := newKrb5Wrapper(testKey, true, 5, 5)
		tok, _ := acc.wrap([]byte("hello, client"), seal)
		f.Add(seal, tok)
	}
	f.Fuzz(func(t *testing.T, seal bool, p []byte) {
		client, _ := newKrb5Wrapper(testKey, false, 5, 5)
		msg, err := client.unwrap(p, seal)
		if err != nil || seal || len(p) >= wrapHeaderLen && p[2]&flagSealed != 0 {
			return
		}
		acc, _ := newKrb5Wrapper(testKey, true, 5, 5)
		want, _ := acc.wrap(msg, false)
		if rrc := binary.BigEndian.Uint16(p[6:8]); rrc == 0 && !bytes.Equal(p, want) {
			t.Fatalf("accepted %x for %q, which wraps to %x", p, msg, want)
		}
	})
}

// FuzzGSSAPIOffer feeds the GSSAPI client arbitrary server offers: as they
// come (raw), or as the payload of a good acceptor token, so that the
// layer choice sees every offer. Nothing may panic; an offer accepted must
// be a 4-byte payload under the key, and the answer must name exactly one
// layer the offer has, with the client's buffer only for a real layer.
func FuzzGSSAPIOffer(f *testing.F) {
	acc, _ := newKrb5Wrapper(testKey, true, 5, 5)
	good, _ := acc.wrap([]byte{layerNone | layerIntegrity | layerPrivacy, 0x01, 0x00, 0x00}, false)
	f.Add(true, byte(0), good)
	f.Add(false, byte(1), []byte{layerPrivacy, 0xff, 0xff, 0xff})
	qopLists := [][]QOP{nil, {AuthConf}, {AuthInt, Auth}, {Auth, AuthConf, AuthInt}}
	f.Fuzz(func(t *testing.T, raw bool, list byte, b []byte) {
		challenge := b
		if !raw {
			acc, _ := newKrb5Wrapper(testKey, true, 5, 5)
			challenge, _ = acc.wrap(b, false)
		}
		w, _ := newKrb5Wrapper(testKey, false, 5, 5)
		m := &gssapi{qops: qopLists[int(list)%len(qopLists)], step: 1, wrapper: w}
		answer, err := m.Step(challenge)
		if err != nil {
			return
		}
		reader, _ := newKrb5Wrapper(testKey, false, 5, 5)
		offer, err := reader.unwrap(challenge, false)
		if err != nil || len(offer) != 4 {
			t.Fatalf("accepted the offer %x (payload %x, %v)", challenge, offer, err)
		}
		acc, _ := newKrb5Wrapper(testKey, true, 5, 5)
		choice, err := acc.unwrap(answer, false)
		if err != nil || len(choice) != 4 {
			t.Fatalf("answer %x: payload %x, %v", answer, choice, err)
		}
		bit := choice[0]
		if bit&(bit-1) != 0 || bit&offer[0]&(layerNone|layerIntegrity|layerPrivacy) == 0 {
			t.Fatalf("offer %x answered with layers %03b", offer, bit)
		}
		if none := bytes.Equal(choice[1:], []byte{0, 0, 0}); none != (bit == layerNone) {
			t.Fatalf("layer %03b with buffer %x", bit, choice[1:])
		}
	})
}
