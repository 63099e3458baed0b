package credentials

import "fmt"

// Version 0, Writable: Hadoop's Credentials.write and readFields. See doc.go
// for the layout.

// The smallest entries there can be, every length a one-byte zero: a token
// is five lengths (alias, identifier, password, kind, service), a secret two.
const (
	minWritableToken  = 5
	minWritableSecret = 2
)

// decodeWritable reads a version 0 body, from c's offset to the end.
func decodeWritable(c *cursor) (*Credentials, error) {
	k := newCollector()
	n, err := c.count("token count", minWritableToken)
	if err != nil {
		return nil, err
	}
	for i := 1; i <= n; i++ {
		t, err := decodeWritableToken(c, i)
		if err != nil {
			return nil, err
		}
		k.token(t)
	}
	c.ctx = ""
	if n, err = c.count("secret count", minWritableSecret); err != nil {
		return nil, err
	}
	for i := 1; i <= n; i++ {
		c.ctx = fmt.Sprintf("secret %d", i)
		alias, err := c.text("alias")
		if err != nil {
			return nil, err
		}
		c.ctx = fmt.Sprintf("secret %d (%s)", i, quote(alias))
		value, err := c.bytes("value")
		if err != nil {
			return nil, err
		}
		k.secret(Secret{Alias: alias, Value: value})
	}
	c.ctx = ""
	return &k.creds, nil
}

// decodeWritableToken reads the i-th (from 1) token entry: an alias, then
// the token as Token.write lays it out.
func decodeWritableToken(c *cursor, i int) (Token, error) {
	c.ctx = fmt.Sprintf("token %d", i)
	var t Token
	var err error
	if t.Alias, err = c.text("alias"); err != nil {
		return t, err
	}
	c.ctx = fmt.Sprintf("token %d (%s)", i, quote(t.Alias))
	if t.Identifier, err = c.bytes("identifier"); err != nil {
		return t, err
	}
	if t.Password, err = c.bytes("password"); err != nil {
		return t, err
	}
	if t.Kind, err = c.text("kind"); err != nil {
		return t, err
	}
	t.Service, err = c.text("service")
	return t, err
}

// appendWritable appends c as a version 0 body.
func appendWritable(b []byte, c *Credentials) []byte {
	b = appendVLong(b, int64(len(c.Tokens)))
	for _, t := range c.Tokens {
		b = appendText(b, t.Alias)
		b = appendBytes(b, t.Identifier)
		b = appendBytes(b, t.Password)
		b = appendText(b, t.Kind)
		b = appendText(b, t.Service)
	}
	b = appendVLong(b, int64(len(c.Secrets)))
	for _, s := range c.Secrets {
		b = appendText(b, s.Alias)
		b = appendBytes(b, s.Value)
	}
	return b
}
