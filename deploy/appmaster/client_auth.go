package appmaster

import (
	"errors"
	"fmt"

	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// clientAuth admits a secure session's client requests: each must carry a
// client-to-AM token that v accepts, for a client acl allows (nil: any).
func clientAuth(v yarn.ClientTokenVerifier, acl func(client string, modify bool) error) func(*wire.ClientToken, bool) error {
	return func(t *wire.ClientToken, modify bool) error {
		if t == nil {
			return errors.New("this session runs on a secure cluster: a request needs the client-to-AM token YARN gives, in the application report, to users the application's ACLs let view it")
		}
		client, err := v.Verify(t.GetIdentifier(), t.GetPassword())
		if err != nil {
			return err
		}
		if acl == nil {
			return nil
		}
		if err := acl(client, modify); err != nil {
			return fmt.Errorf("%s: %w", client, err)
		}
		return nil
	}
}
