package sasl

import (
	"bytes"
	"crypto/md5"
	"errors"
	"fmt"
	"math/bits"
	"strings"
	"sync"
	"testing"
)

// layerKinds are every qop and cipher a layer can have.
var layerKinds = []struct {
	qop    QOP
	cipher Cipher
}{
	{AuthInt, ""},
	{AuthConf, Cipher3DES}, {AuthConf, CipherRC4}, {AuthConf, CipherDES},
	{AuthConf, CipherRC456}, {AuthConf, CipherRC440},
}

var testHA1 = md5.Sum([]byte("a session key"))

// layerPair returns a client layer and its mirror, the server's side:
// the same keys with the directions swapped.
func layerPair(t testing.TB, qop QOP, c Cipher) (client, server *securityLayer) {
	t.Helper()
	client, err := newSecurityLayer(testHA1, qop, c, defaultMaxbuf)
	if err != nil {
		t.Fatal(err)
	}
	server = &securityLayer{
		send: direction{signKey: client.recv.signKey},
		recv: direction{signKey: client.send.signKey},
	}
	if qop == AuthConf {
		kcc, kcs := sealingKeys(testHA1, c)
		server.send.seal, _ = newSealer(c, kcs, true)
		server.recv.seal, _ = newSealer(c, kcc, false)
	}
	return client, server
}

// jdkPackets returns the JDK server's packets of a transcript, and a fresh
// client layer to unwrap them with.
func jdkPackets(t *testing.T, name string) (Layer, [][]byte) {
	t.Helper()
	tr := loadTranscript(t, "testdata/jdk/"+name+".json")
	m := NewDigestMD5(jdkConfig(t, tr))
	if _, err := m.Step([]byte(tr.Challenge)); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Step([]byte(tr.Rspauth)); err != nil {
		t.Fatal(err)
	}
	var ps [][]byte
	for _, msg := range tr.ServerToClient {
		ps = append(ps, unhex(t, msg.Wrapped))
	}
	return m.Layer(), ps
}

func TestLayerRoundTrip(t *testing.T) {
	for _, k := range layerKinds {
		t.Run(fmt.Sprint(k.qop, k.cipher), func(t *testing.T) {
			client, server := layerPair(t, k.qop, k.cipher)
			for n := 0; n < 40; n++ {
				msg := bytes.Repeat([]byte{byte(n)}, n)
				for _, dir := range []struct{ from, to *securityLayer }{{client, server}, {server, client}} {
					w, _ := dir.from.Wrap(msg)
					if k.qop == AuthConf && bytes.Contains(w, msg) && n > 3 {
						t.Errorf("auth-conf packet carries the %d-byte message in the clear", n)
					}
					got, err := dir.to.Unwrap(w)
					if err != nil || !bytes.Equal(got, msg) {
						t.Fatalf("round trip of %d bytes: %x, %v", n, got, err)
					}
				}
			}
		})
	}
}

func TestUnwrapRejects(t *testing.T) {
	flip := func(p []byte, i int) []byte {
		q := append([]byte(nil), p...)
		q[(i+len(q))%len(q)] ^= 0x40
		return q
	}
	tests := []struct {
		transcript string
		packet     func(ps [][]byte) []byte
		want       string
	}{
		{"auth-int", func(ps [][]byte) []byte { return flip(ps[0], -7) }, "MAC mismatch"},           // MAC byte
		{"auth-int", func(ps [][]byte) []byte { return flip(ps[0], 0) }, "MAC mismatch"},            // message byte
		{"auth-int", func(ps [][]byte) []byte { return ps[1] }, "sequence number 1, want 0"},        // out of order
		{"auth-int", func(ps [][]byte) []byte { return flip(ps[0], -5) }, "message type 0x0041"},    // type
		{"auth-int", func(ps [][]byte) []byte { return ps[0][:15] }, "packet of 15 bytes, shorter"}, // short
		{"auth-int", func(ps [][]byte) []byte { return nil }, "packet of 0 bytes"},
		{"auth-conf-3des", func(ps [][]byte) []byte { return flip(ps[0], 3) }, "MAC mismatch"},
		// The first packet is 300 bytes and 2 of padding: flipping a bit in
		// the block before the pad byte flips it (CBC) into 0x42.
		{"auth-conf-3des", func(ps [][]byte) []byte { return flip(ps[0], 301-8) }, "padding length 66 outside [1, 8]"},
		{"auth-conf-3des", func(ps [][]byte) []byte { return ps[0][1:] }, "not a whole number of 8-byte blocks"},
		{"auth-conf-3des", func(ps [][]byte) []byte { return ps[0][:21] }, "packet of 21 bytes, shorter than the smallest possible (22)"},
		{"auth-conf-des", func(ps [][]byte) []byte { return ps[1] }, "MAC mismatch"}, // out of order breaks the CBC chain first
		{"auth-conf-rc4", func(ps [][]byte) []byte { return flip(ps[0], -8) }, "MAC mismatch"},
		{"auth-conf-rc4-40", func(ps [][]byte) []byte { return ps[0][:15] }, "shorter than the smallest possible (16)"},
	}
	for _, tt := range tests {
		t.Run(tt.transcript+"/"+tt.want, func(t *testing.T) {
			l, ps := jdkPackets(t, tt.transcript)
			_, err := l.Unwrap(tt.packet(ps))
			if !errors.Is(err, ErrPacket) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want ErrPacket mentioning %q", err, tt.want)
			}
			// A rejected packet shuts the receiving side: even the right
			// next packet is refused.
			if _, err := l.Unwrap(ps[0]); err == nil || !strings.Contains(err.Error(), "an earlier packet was rejected") {
				t.Errorf("Unwrap after a rejection: err = %v, want a refusal", err)
			}
		})
	}
}

func TestUnwrapReplay(t *testing.T) {
	for _, name := range []string{"auth-int", "auth-conf-3des", "auth-conf-rc4"} {
		l, ps := jdkPackets(t, name)
		if _, err := l.Unwrap(ps[0]); err != nil {
			t.Fatal(err)
		}
		if _, err := l.Unwrap(ps[0]); !errors.Is(err, ErrPacket) {
			t.Errorf("%s: replayed packet: err = %v, want ErrPacket", name, err)
		}
	}
	l, ps := jdkPackets(t, "auth-int")
	l.Unwrap(ps[0])
	if _, err := l.Unwrap(ps[0]); err == nil || !strings.Contains(err.Error(), "sequence number 0, want 1") {
		t.Errorf("auth-int replay: err = %v, want the sequence number named", err)
	}
}

func TestUnwrapBadPadding(t *testing.T) {
	// Seal, with the server's key, bodies whose pad bytes are wrong.
	_, kcs := sealingKeys(testHA1, CipherDES)
	for _, tt := range []struct {
		body []byte
		want string
	}{
		{append(bytes.Repeat([]byte{9}, 6), make([]byte, macLen)...), "padding length 9 outside [1, 8]"},
		{append(bytes.Repeat([]byte{0}, 6), make([]byte, macLen)...), "padding length 0 outside"},
		{append([]byte{1, 2, 3, 4, 3, 3}, make([]byte, macLen)...), "malformed padding"},
		{append(bytes.Repeat([]byte{7}, 6), make([]byte, macLen)...), "padding length 7 exceeds the 6 bytes before the MAC"},
	} {
		client, _ := layerPair(t, AuthConf, CipherDES)
		seal, _ := newSealer(CipherDES, kcs, true)
		p := append([]byte(nil), tt.body...)
		seal.CryptBlocks(p, p)
		p = append(p, 0, 1, 0, 0, 0, 0)
		if _, err := client.Unwrap(p); !errors.Is(err, ErrPacket) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("err = %v, want ErrPacket mentioning %q", err, tt.want)
		}
	}
}

func TestMaxSend(t *testing.T) {
	for _, tt := range []struct {
		qop    QOP
		cipher Cipher
		maxbuf int
		want   int
	}{
		{AuthInt, "", 65536, 65520},
		{AuthConf, CipherRC4, 65536, 65520},
		{AuthConf, Cipher3DES, 65536, 65517},
		{AuthConf, CipherDES, 33, 13},
		{AuthConf, CipherRC440, 17, 1},
	} {
		l, err := newSecurityLayer(testHA1, tt.qop, tt.cipher, tt.maxbuf)
		if err != nil {
			t.Fatal(err)
		}
		if got := l.MaxSend(); got != tt.want {
			t.Errorf("%s %s maxbuf %d: MaxSend = %d, want %d", tt.qop, tt.cipher, tt.maxbuf, got, tt.want)
		}
		// The largest message fits maxbuf once wrapped; one more byte may not.
		if w, _ := l.Wrap(make([]byte, tt.want)); len(w) > tt.maxbuf {
			t.Errorf("%s %s: wrapped MaxSend bytes into %d, over maxbuf %d", tt.qop, tt.cipher, len(w), tt.maxbuf)
		}
	}
	var _ SendLimiter = &securityLayer{}
}

func TestNewSealerUnknownCipher(t *testing.T) {
	if _, err := newSealer("aes", [md5.Size]byte{}, true); err == nil || !strings.Contains(err.Error(), `unknown cipher "aes"`) {
		t.Errorf("err = %v, want the unknown cipher named", err)
	}
}

func TestDESKey(t *testing.T) {
	for _, tt := range []struct {
		in   []byte
		want string
	}{
		{[]byte{0, 0, 0, 0, 0, 0, 0}, "0101010101010101"},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, "fefefefefefefefe"},
		// 0x80 in the first byte is the top of the first 7-bit group;
		// 0x01 in the last is the bottom of the last.
		{[]byte{0x80, 0, 0, 0, 0, 0, 0x01}, "8001010101010102"},
	} {
		got := fmt.Sprintf("%x", desKey(tt.in))
		if got != tt.want {
			t.Errorf("desKey(%x) = %s, want %s", tt.in, got, tt.want)
		}
	}
	for _, b := range desKey([]byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde}) {
		if bits.OnesCount8(b)%2 != 1 {
			t.Errorf("key byte %#02x has even parity", b)
		}
	}
}

// TestLayerDirectionsConcurrent runs Wrap and Unwrap at once (under -race,
// a data race between the two directions fails the test).
func TestLayerDirectionsConcurrent(t *testing.T) {
	client, server := layerPair(t, AuthConf, Cipher3DES)
	toServer := make([][]byte, 100)
	for i := range toServer {
		toServer[i], _ = server.Wrap([]byte(fmt.Sprint("message ", i)))
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 100 {
			client.Wrap([]byte(fmt.Sprint("request ", i)))
		}
	}()
	go func() {
		defer wg.Done()
		for i, p := range toServer {
			if got, err := client.Unwrap(p); err != nil || string(got) != fmt.Sprint("message ", i) {
				t.Errorf("Unwrap %d = %q, %v", i, got, err)
				return
			}
		}
	}()
	wg.Wait()
}
