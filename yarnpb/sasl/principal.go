package sasl

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ErrServerPrincipal is wrapped by every refusal of a server's Kerberos
// principal: the configured one missing or malformed, or the server's
// offer not the one configured.
var ErrServerPrincipal = errors.New("kerberos server principal")

// hostPlaceholder is the host component Hadoop's configurations use for
// "the host serving it" (nn/_HOST@REALM).
const hostPlaceholder = "_HOST"

// ExpandHost replaces a principal's host component `_HOST` with host in
// lower case, as Hadoop's SecurityUtil.getServerPrincipal does: only in a
// principal of exactly three parts, service/_HOST@REALM; anything else is
// returned as it is. host is the server address's canonical host name
// (the caller resolves it: a reverse lookup of the address it dials).
func ExpandHost(principal, host string) string {
	parts := strings.FieldsFunc(principal, func(r rune) bool { return r == '/' || r == '@' })
	if len(parts) != 3 || parts[1] != hostPlaceholder || strings.Count(principal, "/") != 1 || strings.Count(principal, "@") != 1 {
		return principal
	}
	return parts[0] + "/" + strings.ToLower(host) + "@" + parts[2]
}

// OfferedPrincipal is the principal a server's KERBEROS offer names:
// protocol/serverId, in defaultRealm when it names none (as Java's
// KerberosPrincipal reads it).
func OfferedPrincipal(protocol, serverID, defaultRealm string) string {
	p := protocol + "/" + serverID
	if !strings.Contains(p, "@") && defaultRealm != "" {
		p += "@" + defaultRealm
	}
	return p
}

// CheckServer accepts a server's offered principal as Hadoop's
// SaslRpcClient does. With a pattern (the protocol key's ".pattern"
// setting, a Hadoop glob) the offer must match it; otherwise it must be
// the configured principal (the protocol key's value, e.g.
// yarn.resourcemanager.principal) with `_HOST` expanded to host, and that
// must name a host. key names the setting in errors.
func CheckServer(offered, key, configured, pattern, host string) error {
	if pattern != "" {
		re, err := Glob(pattern)
		if err != nil {
			return fmt.Errorf("%w: %s.pattern = %q: %v", ErrServerPrincipal, key, pattern, err)
		}
		if !re.MatchString(offered) {
			return fmt.Errorf("%w: the server is %s, which does not match %s.pattern %q", ErrServerPrincipal, offered, key, pattern)
		}
		return nil
	}
	if configured == "" {
		return fmt.Errorf("%w: %s is not set: the client cannot tell which principal the server must have", ErrServerPrincipal, key)
	}
	want := ExpandHost(configured, host)
	name, _, _ := strings.Cut(want, "@")
	if service, hostPart, ok := strings.Cut(name, "/"); !ok || service == "" || hostPart == "" {
		return fmt.Errorf("%w: %s = %q names no host (want service/host@REALM, or service/_HOST@REALM)", ErrServerPrincipal, key, configured)
	}
	if offered != want {
		return fmt.Errorf("%w: the server is %s, but %s says %s", ErrServerPrincipal, offered, key, want)
	}
	return nil
}

// Glob compiles a Hadoop glob (org.apache.hadoop.fs.GlobPattern) into a
// regular expression matching whole strings: `*` any run of characters
// ('/' too), `?` one, `[...]` a class (`[!...]` its complement), `{a,b}`
// alternatives, `\` escaping the next character.
func Glob(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString(`^(?:`)
	inClass, groups := false, 0
	rs := []rune(glob)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == '\\':
			if i++; i == len(rs) {
				return nil, errors.New("a '\\' escapes nothing at the end")
			}
			b.WriteString(regexp.QuoteMeta(string(rs[i])))
		case inClass:
			switch c {
			case ']':
				inClass = false
				b.WriteByte(']')
			case '[', '^':
				b.WriteString(`\` + string(c))
			default:
				b.WriteRune(c)
			}
		case c == '[':
			inClass = true
			b.WriteByte('[')
			if i+1 < len(rs) && rs[i+1] == '!' {
				b.WriteByte('^')
				i++
			}
		case c == '*':
			b.WriteString(`.*`)
		case c == '?':
			b.WriteString(`.`)
		case c == '{':
			groups++
			b.WriteString(`(?:`)
		case c == '}' && groups > 0:
			groups--
			b.WriteByte(')')
		case c == ',' && groups > 0:
			b.WriteByte('|')
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	if inClass {
		return nil, errors.New("a '[' is not closed")
	}
	if groups > 0 {
		return nil, errors.New("a '{' is not closed")
	}
	b.WriteString(`)$`)
	return regexp.Compile(b.String())
}
