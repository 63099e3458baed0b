package sasl

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"testing/iotest"
)

// testConfig is a token configuration with a cnonce of 30 zero bytes.
func testConfig(qops ...QOP) DigestConfig {
	cfg := TokenConfig([]byte("identifier"), []byte("password"))
	cfg.QOPs = qops
	cfg.Rand = bytes.NewReader(make([]byte, cnonceLen))
	return cfg
}

func TestName(t *testing.T) {
	if got := NewDigestMD5(DigestConfig{}).Name(); got != "DIGEST-MD5" {
		t.Errorf("Name = %q", got)
	}
}

func TestTokenConfig(t *testing.T) {
	cfg := TokenConfig([]byte{0xfb, 0xff}, []byte{1, 2, 3, 4})
	if cfg.Username != "+/8=" || cfg.Password != "AQIDBA==" {
		t.Errorf("username, password = %q, %q; want standard base64 with padding", cfg.Username, cfg.Password)
	}
	if cfg.Protocol+"/"+cfg.ServerID != "/default" {
		t.Errorf("digest-uri = %q, want /default", cfg.Protocol+"/"+cfg.ServerID)
	}
}

// The happy paths, byte for byte, are in TestJDKTranscripts.

func TestStepRejectsBadRspauth(t *testing.T) {
	tr := loadTranscript(t, "testdata/jdk/auth-int.json")
	wrong := strings.Replace(tr.Rspauth, "rspauth=0", "rspauth=1", 1)
	for name, rspauth := range map[string]string{
		"wrong":   wrong,
		"missing": `x-note="welcome"`,
		"empty":   ``,
	} {
		t.Run(name, func(t *testing.T) {
			m := NewDigestMD5(jdkConfig(t, tr))
			if _, err := m.Step([]byte(tr.Challenge)); err != nil {
				t.Fatal(err)
			}
			_, err := m.Step([]byte(rspauth))
			if !errors.Is(err, ErrServerProof) {
				t.Fatalf("rspauth %q: err = %v, want ErrServerProof", rspauth, err)
			}
			if m.Complete() || m.Layer() != nil {
				t.Error("Complete or a Layer after a failed server proof")
			}
			// The exchange stays failed, even for the right rspauth.
			if _, err2 := m.Step([]byte(tr.Rspauth)); err2 != err {
				t.Errorf("Step after failure = %v, want the same error %v", err2, err)
			}
		})
	}
}

// TestStepWithoutChallenge: with no challenge yet, the client says
// nothing and answers the challenge when it comes.
func TestStepWithoutChallenge(t *testing.T) {
	tr := loadTranscript(t, "testdata/jdk/auth-int.json")
	m := NewDigestMD5(jdkConfig(t, tr))
	if resp, err := m.Step(nil); resp != nil || err != nil {
		t.Fatalf("Step(nil) = %q, %v; want no response, no error", resp, err)
	}
	if resp, err := m.Step([]byte(tr.Challenge)); err != nil || string(resp) != tr.Response {
		t.Fatalf("Step(challenge) = %q, %v", resp, err)
	}
	if _, err := m.Step([]byte(tr.Rspauth)); err != nil || !m.Complete() {
		t.Fatalf("rspauth: %v, Complete %v", err, m.Complete())
	}
}

func TestStepAfterComplete(t *testing.T) {
	tr := loadTranscript(t, "testdata/jdk/auth.json")
	m := NewDigestMD5(jdkConfig(t, tr))
	if _, err := m.Step([]byte(tr.Challenge)); err != nil {
		t.Fatal(err)
	}
	if m.Complete() {
		t.Fatal("Complete before the server's rspauth was checked")
	}
	if _, err := m.Step([]byte(tr.Rspauth)); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Step([]byte(tr.Rspauth)); err == nil {
		t.Error("a third Step succeeded")
	}
	if !m.Complete() {
		t.Error("an extra Step undid completion")
	}
}

func TestNegotiation(t *testing.T) {
	const chal = `realm="default",nonce="n",charset=utf-8,algorithm=md5-sess`
	tests := []struct {
		name      string
		qop       string // qop and cipher directives, appended to chal
		allow     []QOP
		ciphers   []Cipher
		want      string // the response's qop=... and cipher=... tail
		wantError string
	}{
		{"default is auth", `,qop="auth-conf,auth-int,auth"`, nil, nil, "qop=auth", ""},
		{"no qop directive means auth", ``, []QOP{AuthConf, Auth}, nil, "qop=auth", ""},
		{"client preference wins", `,qop="auth,auth-int"`, []QOP{AuthConf, AuthInt, Auth}, nil, "qop=auth-int", ""},
		{"3des first", `,qop=auth-conf,cipher="rc4-40,rc4,3des"`, []QOP{AuthConf}, nil, `qop=auth-conf,cipher="3des"`, ""},
		{"then rc4", `,qop=auth-conf,cipher="rc4-40,des,rc4"`, []QOP{AuthConf}, nil, `qop=auth-conf,cipher="rc4"`, ""},
		{"unknown ciphers skipped", `,qop=auth-conf,cipher="aes,rc4-56"`, []QOP{AuthConf}, nil, `qop=auth-conf,cipher="rc4-56"`, ""},
		{"configured ciphers", `,qop=auth-conf,cipher="3des,rc4,rc4-40"`, []QOP{AuthConf}, []Cipher{CipherRC440}, `qop=auth-conf,cipher="rc4-40"`, ""},
		{"qop mismatch", `,qop="auth-conf"`, []QOP{Auth}, nil, "",
			`server offers qop ["auth-conf"], client allows ["auth"]`},
		{"cipher not offered", `,qop=auth-conf,cipher="rc4-40"`, []QOP{AuthConf}, []Cipher{Cipher3DES, CipherRC4}, "",
			`server offers cipher ["rc4-40"], client allows ["3des" "rc4"]`},
		{"auth-conf without cipher directive", `,qop=auth-conf`, []QOP{AuthConf}, nil, "", `server offers cipher []`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig(tt.allow...)
			cfg.Ciphers = tt.ciphers
			resp, err := NewDigestMD5(cfg).Step([]byte(chal + tt.qop))
			if tt.wantError != "" {
				if !errors.Is(err, ErrNegotiation) || !strings.Contains(err.Error(), tt.wantError) {
					t.Fatalf("err = %v, want ErrNegotiation with %q", err, tt.wantError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(string(resp), ","+tt.want) {
				t.Errorf("response %s\ndoes not end with %s", resp, tt.want)
			}
		})
	}
}

func TestResponseShape(t *testing.T) {
	cnonce := base64.StdEncoding.EncodeToString(make([]byte, cnonceLen))
	// No realm offered: none sent, the empty realm hashed. No charset:
	// ISO 8859-1 and no charset directive. Several realms: the first.
	for chal, want := range map[string]string{
		`nonce="n\"q",algorithm=md5-sess`: `username="aWRlbnRpZmllcg==",nonce="n\"q",nc=00000001,cnonce="` + cnonce +
			`",digest-uri="/default",maxbuf=65536,response=`,
		`realm="r1",realm="r2",nonce="n",charset=utf-8,algorithm=md5-sess`: `charset=utf-8,username="aWRlbnRpZmllcg==",realm="r1",nonce="n",`,
	} {
		resp, err := NewDigestMD5(testConfig()).Step([]byte(chal))
		if err != nil {
			t.Fatalf("%s: %v", chal, err)
		}
		if !strings.HasPrefix(string(resp), want) {
			t.Errorf("challenge %s\nresponse %s\nwant prefix %s", chal, resp, want)
		}
	}
}

func TestStepErrors(t *testing.T) {
	const chal = `nonce="n",qop="auth,auth-conf",cipher="des,3des",maxbuf=32,algorithm=md5-sess`
	tests := []struct {
		name  string
		cfg   func(*DigestConfig)
		chal  string
		want  string
		isErr error
	}{
		{"malformed challenge", nil, `nonce=`, "missing value", ErrChallenge},
		{"unknown qop in config", func(c *DigestConfig) { c.QOPs = []QOP{"privacy"} }, chal, `config: unknown qop "privacy"`, nil},
		{"unknown cipher in config", func(c *DigestConfig) { c.Ciphers = []Cipher{"aes"} }, chal, `config: unknown cipher "aes"`, nil},
		{"des needs maxbuf over 32", func(c *DigestConfig) { c.QOPs = []QOP{AuthConf} }, chal, "maxbuf 32, 3des needs more than 32", ErrChallenge},
		{"nonce source fails", func(c *DigestConfig) { c.Rand = iotest.ErrReader(errors.New("no entropy")) }, chal, "client nonce: no entropy", nil},
		{"username not latin1 without charset", func(c *DigestConfig) { c.Username = "\u65e5" }, chal, "username has characters outside ISO 8859-1", nil},
		{"realm not UTF-8 under charset=utf-8", nil, "realm=\"\xff\",nonce=\"n\",charset=utf-8,algorithm=md5-sess", "is not valid UTF-8 though charset=utf-8", ErrChallenge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			m := NewDigestMD5(cfg)
			_, err := m.Step([]byte(tt.chal))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
			if tt.isErr != nil && !errors.Is(err, tt.isErr) {
				t.Errorf("err = %v, want it to wrap %v", err, tt.isErr)
			}
			if m.Complete() || m.Layer() != nil {
				t.Error("Complete or a Layer after a failed Step")
			}
		})
	}
}

func TestCnonceFromCryptoRand(t *testing.T) {
	a, err := newCnonce(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := newCnonce(nil)
	if len(a) != 40 || a == b {
		t.Errorf("cnonces %q, %q: want 40 characters, different each time", a, b)
	}
}
