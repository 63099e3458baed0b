package sasl

import (
	"errors"
	"strings"
	"testing"
)

// _HOST is replaced as Hadoop's SecurityUtil.getServerPrincipal replaces
// it: in service/_HOST@REALM only, by the host in lower case.
func TestExpandHostReplacesOnlyAThreePartPrincipal(t *testing.T) {
	for _, c := range []struct{ in, host, want string }{
		{"rm/_HOST@EXAMPLE.COM", "RM1.Example.com", "rm/rm1.example.com@EXAMPLE.COM"},
		{"nn/_HOST@EXAMPLE.COM", "nn.example.com", "nn/nn.example.com@EXAMPLE.COM"},
		{"rm/_HOST", "h", "rm/_HOST"}, // no realm: as it is
		{"rm/rm1.example.com@EXAMPLE.COM", "h", "rm/rm1.example.com@EXAMPLE.COM"}, // a host already
		{"rm@EXAMPLE.COM", "h", "rm@EXAMPLE.COM"},
		{"rm/_HOST/x@EXAMPLE.COM", "h", "rm/_HOST/x@EXAMPLE.COM"},
		{"rm/_host@EXAMPLE.COM", "h", "rm/_host@EXAMPLE.COM"}, // the placeholder is case-sensitive
		{"", "h", ""},
	} {
		if got := ExpandHost(c.in, c.host); got != c.want {
			t.Errorf("ExpandHost(%q, %q) = %q, want %q", c.in, c.host, got, c.want)
		}
	}
}

func TestOfferedPrincipalTakesTheDefaultRealm(t *testing.T) {
	if got := OfferedPrincipal("rm", "rm1.example.com", "EXAMPLE.COM"); got != "rm/rm1.example.com@EXAMPLE.COM" {
		t.Errorf("got %q", got)
	}
	if got := OfferedPrincipal("rm", "rm1.example.com", ""); got != "rm/rm1.example.com" {
		t.Errorf("no default realm: got %q", got)
	}
}

// The server's offer is checked as SaslRpcClient checks it: against the
// pattern when one is set, else against the configured principal with
// _HOST expanded, which must name a host.
func TestCheckServer(t *testing.T) {
	const key = "yarn.resourcemanager.principal"
	offer := "rm/rm1.example.com@EXAMPLE.COM"
	for _, c := range []struct {
		name, offered, configured, pattern, host string
		ok                                       bool
		says                                     string
	}{
		{name: "_HOST expanded", offered: offer, configured: "rm/_HOST@EXAMPLE.COM", host: "RM1.example.com", ok: true},
		{name: "exact", offered: offer, configured: offer, host: "elsewhere", ok: true},
		{name: "another host", offered: offer, configured: "rm/_HOST@EXAMPLE.COM", host: "rm2.example.com", says: "but " + key + " says rm/rm2.example.com@EXAMPLE.COM"},
		{name: "another realm", offered: offer, configured: "rm/rm1.example.com@OTHER.ORG", says: "the server is " + offer},
		{name: "not set", offered: offer, says: key + " is not set"},
		{name: "no host", offered: "rm@EXAMPLE.COM", configured: "rm@EXAMPLE.COM", says: "names no host"},
		{name: "pattern", offered: offer, configured: "ignored", pattern: "rm/*@EXAMPLE.COM", ok: true},
		{name: "pattern alternatives", offered: offer, pattern: "{nn,rm}/rm?.example.com@EXAMPLE.COM", ok: true},
		{name: "pattern refused", offered: offer, pattern: "nn/*", says: "does not match " + key + ".pattern"},
		{name: "bad pattern", offered: offer, pattern: "rm/[a", says: "is not closed"},
	} {
		err := CheckServer(c.offered, key, c.configured, c.pattern, c.host)
		if c.ok {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if !errors.Is(err, ErrServerPrincipal) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want ErrServerPrincipal saying %q", c.name, err, c.says)
		}
	}
}

// Hadoop's GlobPattern: whole strings, '*' across '/', classes and their
// complement, alternatives, escapes; regular-expression characters are
// literal.
func TestGlobReadsHadoopsGlobs(t *testing.T) {
	for _, c := range []struct {
		glob, s string
		match   bool
	}{
		{"*", "rm/a.b@R", true},
		{"rm/*", "rm/a/b@R", true},
		{"rm/?@R", "rm/a@R", true},
		{"rm/?@R", "rm/ab@R", false},
		{"[rn]m/*", "nm/h@R", true},
		{"[!rn]m/*", "nm/h@R", false},
		{"[!rn]m/*", "am/h@R", true},
		{"[a-c]x", "bx", true},
		{"{rm,nn}/h@R", "nn/h@R", true},
		{"{rm,nn}/h@R", "dn/h@R", false},
		{"a.b", "aXb", false}, // '.' is literal
		{"a+b", "a+b", true},
		{`a\*b`, "a*b", true},
		{`a\*b`, "axb", false},
		{"rm", "rm/h@R", false}, // whole strings
		{"x,y", "x,y", true},    // ',' outside braces is literal
		{"ü*", "übung", true},
	} {
		re, err := Glob(c.glob)
		if err != nil {
			t.Errorf("Glob(%q): %v", c.glob, err)
			continue
		}
		if got := re.MatchString(c.s); got != c.match {
			t.Errorf("Glob(%q) on %q: %v, want %v", c.glob, c.s, got, c.match)
		}
	}
	for _, bad := range []string{"[a", "{a,b", `a\`, "[]"} {
		if _, err := Glob(bad); err == nil {
			t.Errorf("Glob(%q) compiled", bad)
		}
	}
}

func FuzzGlob(f *testing.F) {
	for _, s := range []string{"rm/*@R", "[!a-z]?", "{a,{b,c}}", `\`, "[", "]", "}{", "ü[ü]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, glob string) {
		re, err := Glob(glob)
		if err == nil {
			re.MatchString(glob) // compiles means usable
		}
	})
}
