package yarn

import (
	"crypto/hmac"
	"crypto/sha1"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

func clientToken(t *testing.T, key []byte, app *hadoopyarn.ApplicationIdProto, client string) (identifier, password []byte) {
	t.Helper()
	identifier, err := proto.Marshal(&hadoopyarn.ClientToAMTokenIdentifierProto{
		AppAttemptId: &hadoopyarn.ApplicationAttemptIdProto{ApplicationId: app, AttemptId: proto.Int32(1)}, ClientName: proto.String(client)})
	if err != nil {
		t.Fatal(err)
	}
	mac := hmac.New(sha1.New, key)
	mac.Write(identifier)
	return identifier, mac.Sum(nil)
}

func TestClientTokenVerifier(t *testing.T) {
	key := []byte("0123456789abcdef")
	app := &hadoopyarn.ApplicationIdProto{ClusterTimestamp: proto.Int64(1795000000000), Id: proto.Int32(7)}
	other := &hadoopyarn.ApplicationIdProto{ClusterTimestamp: proto.Int64(1795000000000), Id: proto.Int32(8)}
	v := ClientTokenVerifier{MasterKey: key, App: app}

	id, pw := clientToken(t, key, app, "alice@EXAMPLE.COM")
	if name, err := v.Verify(id, pw); err != nil || name != "alice@EXAMPLE.COM" {
		t.Fatalf("a good token: %q, %v", name, err)
	}
	bad := append([]byte{}, pw...)
	bad[0] ^= 1
	otherID, otherPW := clientToken(t, key, other, "alice@EXAMPLE.COM")
	_, wrongKeyPW := clientToken(t, []byte("another key....."), app, "alice@EXAMPLE.COM")
	for name, tc := range map[string]struct {
		v      ClientTokenVerifier
		id, pw []byte
		want   string
	}{
		"a changed password":  {v, id, bad, "not the RM's"},
		"another key":         {v, id, wrongKeyPW, "not the RM's"},
		"another application": {v, otherID, otherPW, "is for application_1795000000000_0008"},
		"no password":         {v, id, nil, "not the RM's"},
		"no master key":       {ClientTokenVerifier{App: app}, id, pw, "no client-to-AM master key"},
	} {
		if _, err := tc.v.Verify(tc.id, tc.pw); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, tc.want)
		}
	}
}
