package kerberos

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jcmturner/gokrb5/v8/iana/etypeID"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

const testKrb5Conf = `[libdefaults]
  default_realm = EXAMPLE.COM
[realms]
  EXAMPLE.COM = {
    kdc = 127.0.0.1:1
  }
`

func envOf(kv map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := kv[k]; return v, ok }
}

func writeConf(t *testing.T, text string) string {
	p := filepath.Join(t.TempDir(), "krb5.conf")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCachePath(t *testing.T) {
	for v, want := range map[string]string{"FILE:/tmp/cc": "/tmp/cc", "/tmp/plain": "/tmp/plain"} {
		if got, err := cachePath(envOf(map[string]string{"KRB5CCNAME": v})); err != nil || got != want {
			t.Errorf("KRB5CCNAME=%s: %q, %v; want %q", v, got, err, want)
		}
	}
	if got, err := cachePath(envOf(nil)); err != nil || !strings.HasPrefix(got, "/tmp/krb5cc_") {
		t.Errorf("no KRB5CCNAME: %q, %v; want MIT's /tmp/krb5cc_<uid>", got, err)
	}
	_, err := cachePath(envOf(map[string]string{"KRB5CCNAME": "KEYRING:persistent:1000"}))
	if err == nil || !strings.Contains(err.Error(), "FILE: caches only") || !strings.Contains(err.Error(), "kinit -c FILE:") {
		t.Errorf("a KEYRING cache: %v; want a refusal saying what to do", err)
	}
}

func TestLogInRefusals(t *testing.T) {
	conf := writeConf(t, testKrb5Conf)
	missing := filepath.Join(t.TempDir(), "nothing")
	for _, tc := range []struct {
		name  string
		login Login
		env   map[string]string
		want  []string
	}{
		{"no krb5.conf", Login{}, map[string]string{"KRB5_CONFIG": missing}, []string{"no krb5.conf", "KRB5_CONFIG=" + missing}},
		{"krb5.conf without a realm", Login{}, map[string]string{"KRB5_CONFIG": writeConf(t, "[libdefaults]\n  dns_lookup_kdc = false\n")}, []string{"names no default_realm"}},
		{"no ticket cache", Login{}, map[string]string{"KRB5_CONFIG": conf, "KRB5CCNAME": "FILE:" + missing}, []string{"no Kerberos ticket", "no ticket cache at " + missing, "run kinit"}},
		{"principal without keytab", Login{Principal: "alice"}, map[string]string{"KRB5_CONFIG": conf}, []string{"go together"}},
		{"unreadable keytab", Login{Principal: "alice", Keytab: missing}, map[string]string{"KRB5_CONFIG": conf}, []string{"reading the keytab " + missing}},
	} {
		_, err := LogIn(tc.login, envOf(tc.env))
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v; want it to say %q", tc.name, err, w)
			}
		}
	}
	_, err := LogIn(Login{}, envOf(map[string]string{"KRB5_CONFIG": conf, "KRB5CCNAME": missing}))
	if !errors.Is(err, ErrNoTicket) {
		t.Errorf("no ticket cache: %v is not ErrNoTicket", err)
	}
}

func TestSplitPrincipal(t *testing.T) {
	for in, want := range map[string][2]string{"alice": {"alice", "DEF"}, "alice@R": {"alice", "R"}, "svc/host@R": {"svc/host", "R"}} {
		if n, r := splitPrincipal(in, "DEF"); n != want[0] || r != want[1] {
			t.Errorf("splitPrincipal(%q) = %q, %q; want %v", in, n, r, want)
		}
	}
}

// A keytab login whose KDC does not answer names the KDC it tried.
func TestLogInKDCUnreachable(t *testing.T) {
	kt := keytab.New()
	if err := kt.AddEntry("alice", "EXAMPLE.COM", "secret", time.Now(), 1, etypeID.AES128_CTS_HMAC_SHA1_96); err != nil {
		t.Fatal(err)
	}
	raw, err := kt.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "alice.keytab")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	conf := writeConf(t, strings.Replace(testKrb5Conf, "[libdefaults]", "[libdefaults]\n  udp_preference_limit = 1", 1))
	_, err = LogIn(Login{Principal: "alice", Keytab: path}, envOf(map[string]string{"KRB5_CONFIG": conf}))
	if err == nil || !strings.Contains(err.Error(), "cannot reach a KDC of EXAMPLE.COM (krb5.conf names 127.0.0.1:1)") {
		t.Errorf("login with an unreachable KDC: %v", err)
	}
}
