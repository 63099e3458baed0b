package credentials

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
)

// Version 1, Protobuf: Hadoop's Credentials.writeProto and readProto, which
// use writeDelimitedTo and parseDelimitedFrom, so the CredentialsProto is
// preceded by its length as a protobuf varint.

// decodeProtobuf reads a version 1 body, from c's offset to the end of the
// message. Unlike Hadoop it leaves bytes after the message to the caller to
// refuse.
func decodeProtobuf(c *cursor) (*Credentials, error) {
	at := c.off
	size, n := protowire.ConsumeVarint(c.buf[at:])
	if n < 0 {
		return nil, c.fail(at, "message length at offset %d is not a valid varint (%v)", at, protowire.ParseError(n))
	}
	c.off += n
	if size > uint64(c.left()) {
		return nil, c.fail(at, "message length %d at offset %d exceeds the %d bytes left", size, at, c.left())
	}
	at = c.off
	body := c.buf[at : at+int(size)]
	c.off += int(size)

	// Required fields (an alias, all four of a token's) are checked here,
	// as Hadoop's generated parser checks them.
	var p hadoopcommon.CredentialsProto
	if err := proto.Unmarshal(body, &p); err != nil {
		return nil, c.fail(at, "CredentialsProto of %d bytes at offset %d: %v", size, at, err)
	}
	where := func(list string, i int, alias string) string {
		return fmt.Sprintf("%s entry %d (%s) of the CredentialsProto at offset %d", list, i, quote(alias), at)
	}
	k := newCollector()
	for i, kv := range p.GetTokens() {
		// Hadoop would take a missing token for an empty one and ignore a
		// stray secret; neither is anything Hadoop writes.
		if kv.Token == nil || kv.Secret != nil {
			return nil, c.fail(at, "%s: a tokens entry needs a token and no secret", where("tokens", i+1, kv.GetAlias()))
		}
		k.token(TokenFromProto(kv.GetAlias(), kv.Token))
	}
	for i, kv := range p.GetSecrets() {
		if kv.Secret == nil || kv.Token != nil {
			return nil, c.fail(at, "%s: a secrets entry needs a secret and no token", where("secrets", i+1, kv.GetAlias()))
		}
		k.secret(Secret{Alias: kv.GetAlias(), Value: kv.Secret})
	}
	return &k.creds, nil
}

// appendProtobuf appends c as a version 1 body, field for field what Hadoop
// writes: the secret field is present even when empty.
func appendProtobuf(b []byte, c *Credentials) ([]byte, error) {
	var p hadoopcommon.CredentialsProto
	for _, t := range c.Tokens {
		p.Tokens = append(p.Tokens, &hadoopcommon.CredentialsKVProto{
			Alias: proto.String(t.Alias),
			Token: t.Proto(),
		})
	}
	for _, s := range c.Secrets {
		p.Secrets = append(p.Secrets, &hadoopcommon.CredentialsKVProto{
			Alias:  proto.String(s.Alias),
			Secret: nonNil(s.Value),
		})
	}
	body, err := proto.Marshal(&p)
	if err != nil {
		return nil, fmt.Errorf("credentials: encoding CredentialsProto: %w", err)
	}
	b = protowire.AppendVarint(b, uint64(len(body)))
	return append(b, body...), nil
}
