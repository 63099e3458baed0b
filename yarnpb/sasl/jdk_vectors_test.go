package sasl

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// The transcripts in testdata/jdk were recorded from the JDK's own
// DIGEST-MD5 client and server (javax.security.sasl, OpenJDK 17.0.15), an
// implementation independent of this one, by a throwaway Java program that
// is not part of the repository. It created the server with
// Sasl.createSaslServer("DIGEST-MD5", "", "default", {qop:
// "auth-conf,auth-int,auth"}) and the client with
// Sasl.createSaslClient({"DIGEST-MD5"}, null, "", "default", {qop: QOP,
// com.sun.security.sasl.digest.cipher: CIPHER}), both with username and
// password the base64 of fixed token identifier and password bytes (as
// Hadoop's TOKEN auth makes them) and the realm the server offers
// ("default"). It ran the exchange (server challenge, client response,
// server rspauth), then wrapped seven messages (1 to 300 bytes, chosen to
// hit every padding length) client to server and seven server to client,
// checking each side unwrapped the other's, and wrote it all as JSON:
// texts as strings, binary as hex.
type jdkTranscript struct {
	JDK            string       `json:"jdk"`
	IdentifierHex  string       `json:"identifier_hex"`
	PasswordHex    string       `json:"password_hex"`
	QOP            QOP          `json:"qop"`
	Cipher         Cipher       `json:"cipher"`
	Challenge      string       `json:"challenge"`
	Response       string       `json:"response"`
	Rspauth        string       `json:"rspauth"`
	ClientToServer []jdkMessage `json:"client_to_server"`
	ServerToClient []jdkMessage `json:"server_to_client"`
}

type jdkMessage struct {
	Plain   string `json:"plain"`
	Wrapped string `json:"wrapped"`
}

var cnonceInResponse = regexp.MustCompile(`cnonce="([^"]*)"`)

// TestJDKTranscripts plays the client's part of each recorded exchange:
// given the JDK server's challenge and the JDK client's cnonce, it must
// send the JDK client's response byte for byte, accept the JDK server's
// rspauth, wrap the client's messages into the JDK client's packets, and
// unwrap the JDK server's packets.
func TestJDKTranscripts(t *testing.T) {
	files, err := filepath.Glob("testdata/jdk/*.json")
	if err != nil || len(files) != 7 {
		t.Fatalf("want 7 transcripts in testdata/jdk, got %d (%v)", len(files), err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			tr := loadTranscript(t, file)
			m := NewDigestMD5(jdkConfig(t, tr))
			resp, err := m.Step([]byte(tr.Challenge))
			if err != nil {
				t.Fatalf("challenge: %v", err)
			}
			if string(resp) != tr.Response {
				t.Fatalf("response differs from the JDK client's:\n got %s\nwant %s", resp, tr.Response)
			}
			if final, err := m.Step([]byte(tr.Rspauth)); err != nil || final != nil {
				t.Fatalf("rspauth: response %q, err %v", final, err)
			}
			if !m.Complete() {
				t.Fatal("not Complete after a good rspauth")
			}
			l := m.Layer()
			if tr.QOP == Auth {
				if l != nil {
					t.Fatal("qop auth negotiated a Layer")
				}
				return
			}
			if l == nil {
				t.Fatalf("qop %s negotiated no Layer", tr.QOP)
			}
			for i, msg := range tr.ClientToServer {
				got, err := l.Wrap(unhex(t, msg.Plain))
				if err != nil || !bytes.Equal(got, unhex(t, msg.Wrapped)) {
					t.Errorf("Wrap of client message %d = %x, %v\nwant %s", i, got, err, msg.Wrapped)
				}
			}
			for i, msg := range tr.ServerToClient {
				got, err := l.Unwrap(unhex(t, msg.Wrapped))
				if err != nil || !bytes.Equal(got, unhex(t, msg.Plain)) {
					t.Errorf("Unwrap of server message %d = %x, %v\nwant %s", i, got, err, msg.Plain)
				}
			}
		})
	}
}

func loadTranscript(t testing.TB, file string) *jdkTranscript {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var tr jdkTranscript
	if err := json.Unmarshal(b, &tr); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return &tr
}

// jdkConfig is the configuration the recorded client had, with its cnonce
// fed back through Rand: the JDK's cnonce is 30 random bytes in base64,
// as this client's is.
func jdkConfig(t testing.TB, tr *jdkTranscript) DigestConfig {
	t.Helper()
	cfg := TokenConfig(unhex(t, tr.IdentifierHex), unhex(t, tr.PasswordHex))
	cfg.QOPs = []QOP{tr.QOP}
	if tr.Cipher != "" {
		cfg.Ciphers = []Cipher{tr.Cipher}
	}
	match := cnonceInResponse.FindStringSubmatch(tr.Response)
	if match == nil {
		t.Fatalf("no cnonce in the recorded response %q", tr.Response)
	}
	raw, err := base64.StdEncoding.DecodeString(match[1])
	if err != nil {
		t.Fatalf("recorded cnonce %q: %v", match[1], err)
	}
	cfg.Rand = bytes.NewReader(raw)
	return cfg
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex in testdata: %v", err)
	}
	return b
}
