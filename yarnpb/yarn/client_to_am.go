package yarn

import (
	"crypto/hmac"
	"crypto/sha1"
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// ClientTokenKind is the kind of the client-to-AM tokens the RM issues.
const ClientTokenKind = "YARN_CLIENT_TOKEN"

// ClientTokenVerifier checks client-to-AM tokens as the AM they are for:
// with the master key the RM gave it at registration
// (client_to_am_token_master_key), for its own application.
type ClientTokenVerifier struct {
	MasterKey []byte
	App       *hadoopyarn.ApplicationIdProto
}

// Verify checks identifier and password and returns the client's name,
// the principal the RM authenticated (alice@REALM on a Kerberos cluster).
// A token for another application, or whose password is not the master
// key's HMAC of its identifier, is refused.
func (v ClientTokenVerifier) Verify(identifier, password []byte) (string, error) {
	if len(v.MasterKey) == 0 {
		return "", errors.New("no client-to-AM master key: the RM gives one on secure clusters only")
	}
	mac := hmac.New(sha1.New, v.MasterKey)
	mac.Write(identifier)
	if !hmac.Equal(mac.Sum(nil), password) {
		return "", errors.New("the client-to-AM token's password is not the RM's")
	}
	id := &hadoopyarn.ClientToAMTokenIdentifierProto{}
	if err := proto.Unmarshal(identifier, id); err != nil {
		return "", fmt.Errorf("the client-to-AM token's identifier: %w", err)
	}
	if app := id.GetAppAttemptId().GetApplicationId(); !proto.Equal(app, v.App) {
		return "", fmt.Errorf("the client-to-AM token is for %s, not %s", ApplicationID(app), ApplicationID(v.App))
	}
	if id.GetClientName() == "" {
		return "", errors.New("the client-to-AM token names no client")
	}
	return id.GetClientName(), nil
}
