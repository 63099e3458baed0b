package credentials

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestAddReplacesInPlace(t *testing.T) {
	c := sample()
	c.AddToken(Token{Alias: "amrm", Kind: "YARN_AM_RM_TOKEN", Service: "rolled"})
	c.AddToken(Token{Alias: "new", Kind: "HDFS_DELEGATION_TOKEN"})
	var aliases []string
	for _, tok := range c.Tokens {
		aliases = append(aliases, tok.Alias)
	}
	if want := []string{"amrm", "tök", "new"}; !reflect.DeepEqual(aliases, want) {
		t.Errorf("aliases %v, want %v", aliases, want)
	}
	if c.Tokens[0].Service != "rolled" {
		t.Errorf("replaced token %v", c.Tokens[0])
	}
	c.AddSecret(Secret{Alias: "key", Value: []byte("v2")})
	c.AddSecret(Secret{Alias: "other", Value: []byte("v")})
	if len(c.Secrets) != 3 || string(c.Secrets[0].Value) != "v2" || c.Secrets[2].Alias != "other" {
		t.Errorf("secrets %v", c.Secrets)
	}
}

func TestLookups(t *testing.T) {
	c := sample()
	if tok, ok := c.FindToken("NMToken", ""); !ok || tok.Alias != "tök" {
		t.Errorf("FindToken(NMToken, \"\") = %v, %v", tok, ok)
	}
	if _, ok := c.FindToken("YARN_AM_RM_TOKEN", "elsewhere:8030"); ok {
		t.Error("FindToken matched a token for another service")
	}
	if got := c.TokensOfKind("HDFS_DELEGATION_TOKEN"); got != nil {
		t.Errorf("TokensOfKind(absent) = %v", got)
	}
	if v, ok := c.FindSecret("key"); !ok || string(v) != secretText {
		t.Error("FindSecret(key) failed")
	}
	if _, ok := c.FindSecret("absent"); ok {
		t.Error("FindSecret(absent) found something")
	}
}

func TestPrintingLeaksNothing(t *testing.T) {
	c := sample()
	for _, s := range []string{fmt.Sprint(c), fmt.Sprintf("%+v", *c), c.Tokens[0].String(), c.Secrets[0].String()} {
		if strings.Contains(s, "do-not-print") || strings.Contains(s, "[128 255 0]") {
			t.Errorf("printed credentials show secret bytes: %s", s)
		}
	}
	if got, want := c.Tokens[0].String(), `YARN_AM_RM_TOKEN token for "10.0.0.1:8030" (alias "amrm")`; got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
}

func TestTokenProto(t *testing.T) {
	tok := sample().Tokens[0]
	p := tok.Proto()
	if string(p.GetPassword()) != passwordText || p.GetKind() != tok.Kind || p.GetService() != tok.Service {
		t.Errorf("Proto() = %v", p)
	}
	if back := TokenFromProto(tok.Alias, p); !reflect.DeepEqual(back, tok) {
		t.Errorf("TokenFromProto(Proto()) = %#v, want %#v", back, tok)
	}
}
