package sasl

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

const algo = ",algorithm=md5-sess"

func TestParseChallenge(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want challenge
	}{{
		name: "hadoop",
		in:   `realm="default",nonce="n1",qop="auth-conf,auth-int,auth",charset=utf-8,cipher="3des,rc4,des,rc4-56,rc4-40",algorithm=md5-sess`,
		want: challenge{
			realms: []string{"default"}, nonce: "n1",
			qops:    []QOP{AuthConf, AuthInt, Auth},
			ciphers: []Cipher{Cipher3DES, CipherRC4, CipherDES, CipherRC456, CipherRC440},
			maxbuf:  65536, utf8: true,
		},
	}, {
		name: "escapes and commas inside quotes",
		in:   `nonce="a,b\"c\\d",realm="x\,y"` + algo,
		want: challenge{realms: []string{"x,y"}, nonce: `a,b"c\d`, qops: []QOP{Auth}, maxbuf: 65536},
	}, {
		name: "white space, empty elements, case-insensitive names",
		in:   " ,, NONCE = \"n\" ,\r\n\tAlgorithm=MD5-SESS ,, QOP=\" auth-int ,\tauth \", ",
		want: challenge{nonce: "n", qops: []QOP{AuthInt, Auth}, maxbuf: 65536},
	}, {
		name: "several realms, unknown directives (even repeated), stale, quoted maxbuf",
		in:   `realm="r1",x-new=1,realm="r2",nonce="n",x-new="2",stale=true,maxbuf="1024",qop=auth-int` + algo,
		want: challenge{realms: []string{"r1", "r2"}, nonce: "n", qops: []QOP{AuthInt}, maxbuf: 1024},
	}, {
		name: "unknown qop and cipher names kept, for the error message",
		in:   `nonce="n",qop="auth-conf,auth-quantum",cipher="aes-gcm,rc4"` + algo,
		want: challenge{nonce: "n", qops: []QOP{AuthConf, "auth-quantum"}, ciphers: []Cipher{"aes-gcm", CipherRC4}, maxbuf: 65536},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseChallenge([]byte(tt.in))
			if err != nil {
				t.Fatalf("parseChallenge(%q): %v", tt.in, err)
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("parseChallenge(%q)\n got %+v\nwant %+v", tt.in, *got, tt.want)
			}
		})
	}
}

func TestParseChallengeErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`realm="default"` + algo, "nonce directive missing"},
		{`nonce=""` + algo, "nonce is empty"},
		{`nonce="n"`, "algorithm directive missing"},
		{`nonce="n",algorithm=md5`, `algorithm "md5"`},
		{`nonce="a",nonce="b"` + algo, `"nonce" appears more than once`},
		{`nonce="n",qop=auth,qop=auth` + algo, `"qop" appears more than once`},
		{`nonce="n",stale=true,stale=true` + algo, `"stale" appears more than once`},
		{`nonce="n",charset=iso-8859-1` + algo, `charset "iso-8859-1"`},
		{`nonce="n",maxbuf=16` + algo, `maxbuf "16" outside`},
		{`nonce="n",maxbuf=16777216` + algo, `maxbuf "16777216" outside`},
		{`nonce="n",maxbuf=99999999999999999999999` + algo, "outside"},
		{`nonce="n",maxbuf=-100` + algo, `maxbuf "-100" is not a decimal`},
		{`nonce="n",maxbuf=""` + algo, `maxbuf "" is not a decimal`},
		{`nonce="n` + algo, "quoted string opened at offset 6 is not closed"},
		{`nonce="n\`, "lone backslash"},
		{`nonce` + algo, `directive "nonce": expected '='`},
		{`nonce=,` + algo, `directive "nonce": missing value`},
		{`nonce="a"b` + algo, `directive "nonce": expected ','`},
		{`nonce=a"b` + algo, `not allowed in an unquoted value`},
		{`="x"` + algo, "expected a directive name at offset 0"},
		{"n\x00once=x" + algo, `expected '='`},
		{`nonce="` + strings.Repeat("x", 2100) + `"` + algo, "limit is 2047"},
	}
	for _, tt := range tests {
		_, err := parseChallenge([]byte(tt.in))
		if err == nil || !errors.Is(err, ErrChallenge) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("parseChallenge(%.60q) error = %v, want ErrChallenge mentioning %q", tt.in, err, tt.want)
		}
	}
}

func TestParseRspauth(t *testing.T) {
	if got, err := parseRspauth([]byte(`rspauth=abc, x-extra="y"`)); err != nil || got != "abc" {
		t.Errorf("parseRspauth = %q, %v", got, err)
	}
	for in, want := range map[string]string{
		``:                        "no rspauth",
		`nonce="n"`:               "no rspauth",
		`rspauth=a,rspauth=a`:     "more than once",
		`rspauth="a`:              "not closed",
		strings.Repeat("x", 2048): "limit",
	} {
		_, err := parseRspauth([]byte(in))
		if !errors.Is(err, ErrServerProof) || !strings.Contains(err.Error(), want) {
			t.Errorf("parseRspauth(%.40q) error = %v, want ErrServerProof mentioning %q", in, err, want)
		}
	}
}
