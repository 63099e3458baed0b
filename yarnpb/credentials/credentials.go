package credentials

import (
	"fmt"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
)

// A Token is a Hadoop delegation token stored under an alias. Identifier is
// what the issuer signed (the DIGEST-MD5 user name, base64-encoded) and
// Password the secret that proves it (the DIGEST-MD5 password).
type Token struct {
	Alias      string
	Kind       string // e.g. YARN_AM_RM_TOKEN, HDFS_DELEGATION_TOKEN
	Service    string // host:port (or nameservice) it opens; may be empty
	Identifier []byte
	Password   []byte
}

// String names the token without its identifier or password, so that a
// token printed with %v, alone or inside a struct, leaks nothing.
func (t Token) String() string {
	return fmt.Sprintf("%s token for %q (alias %q)", t.Kind, t.Service, t.Alias)
}

// Proto returns the token as Hadoop's TokenProto, as it travels in RPCs
// (allocate responses carry NMTokens this way). The alias has no place in it.
func (t Token) Proto() *hadoopcommon.TokenProto {
	return &hadoopcommon.TokenProto{
		// All four fields are proto2 `required`: a nil slice would be
		// "not set" and fail to marshal, so empty must be non-nil.
		Identifier: nonNil(t.Identifier),
		Password:   nonNil(t.Password),
		Kind:       &t.Kind,
		Service:    &t.Service,
	}
}

// TokenFromProto returns the token p carries, stored under alias.
func TokenFromProto(alias string, p *hadoopcommon.TokenProto) Token {
	return Token{
		Alias:      alias,
		Kind:       p.GetKind(),
		Service:    p.GetService(),
		Identifier: nonNil(p.GetIdentifier()),
		Password:   nonNil(p.GetPassword()),
	}
}

// A Secret is a secret key stored under an alias (Hadoop's addSecretKey).
type Secret struct {
	Alias string
	Value []byte
}

// String names the secret and its size without its bytes.
func (s Secret) String() string {
	return fmt.Sprintf("secret %q (%d bytes)", s.Alias, len(s.Value))
}

// Credentials is the content of a credentials file: tokens and secrets, in
// file order. Aliases are unique among tokens and among secrets (a token and
// a secret may share one, as in Hadoop, where they are separate maps).
type Credentials struct {
	Tokens  []Token
	Secrets []Secret
}

// FindToken returns the first token of the kind for the service.
func (c *Credentials) FindToken(kind, service string) (Token, bool) {
	for _, t := range c.Tokens {
		if t.Kind == kind && t.Service == service {
			return t, true
		}
	}
	return Token{}, false
}

// TokensOfKind returns the tokens of a kind, in file order.
func (c *Credentials) TokensOfKind(kind string) []Token {
	var out []Token
	for _, t := range c.Tokens {
		if t.Kind == kind {
			out = append(out, t)
		}
	}
	return out
}

// FindSecret returns the secret stored under alias.
func (c *Credentials) FindSecret(alias string) ([]byte, bool) {
	for _, s := range c.Secrets {
		if s.Alias == alias {
			return s.Value, true
		}
	}
	return nil, false
}

// AddToken stores t under its alias, replacing in place a token already
// there (Hadoop's addToken), else appending.
func (c *Credentials) AddToken(t Token) {
	for i := range c.Tokens {
		if c.Tokens[i].Alias == t.Alias {
			c.Tokens[i] = t
			return
		}
	}
	c.Tokens = append(c.Tokens, t)
}

// AddSecret stores s under its alias, replacing in place a secret already
// there (Hadoop's addSecretKey), else appending.
func (c *Credentials) AddSecret(s Secret) {
	for i := range c.Secrets {
		if c.Secrets[i].Alias == s.Alias {
			c.Secrets[i] = s
			return
		}
	}
	c.Secrets = append(c.Secrets, s)
}

// collector gathers entries as a decoder meets them, with AddToken's and
// AddSecret's meaning but an index by alias, so that a file of a million
// entries does not cost a million squared comparisons.
type collector struct {
	creds             Credentials
	tokenAt, secretAt map[string]int
}

func newCollector() *collector {
	return &collector{tokenAt: map[string]int{}, secretAt: map[string]int{}}
}

func (k *collector) token(t Token) {
	if i, ok := k.tokenAt[t.Alias]; ok {
		k.creds.Tokens[i] = t
		return
	}
	k.tokenAt[t.Alias] = len(k.creds.Tokens)
	k.creds.Tokens = append(k.creds.Tokens, t)
}

func (k *collector) secret(s Secret) {
	if i, ok := k.secretAt[s.Alias]; ok {
		k.creds.Secrets[i] = s
		return
	}
	k.secretAt[s.Alias] = len(k.creds.Secrets)
	k.creds.Secrets = append(k.creds.Secrets, s)
}

// duplicateAlias reports an alias used twice among the tokens or among the
// secrets: Hadoop would silently keep only one, so writing it is refused.
func (c *Credentials) duplicateAlias() error {
	seen := map[string]bool{}
	for _, t := range c.Tokens {
		if seen[t.Alias] {
			return fmt.Errorf("credentials: two tokens with the alias %s", quote(t.Alias))
		}
		seen[t.Alias] = true
	}
	clear(seen)
	for _, s := range c.Secrets {
		if seen[s.Alias] {
			return fmt.Errorf("credentials: two secrets with the alias %s", quote(s.Alias))
		}
		seen[s.Alias] = true
	}
	return nil
}

// nonNil returns b, or an empty non-nil slice for nil: a protobuf bytes
// field is present only when non-nil, and Hadoop always writes them.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
