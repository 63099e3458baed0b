package nodemanager

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
)

func readTokens(t *testing.T, launch *hadoopyarn.ContainerLaunchContextProto) *credentials.Credentials {
	t.Helper()
	c, err := credentials.Read(bytes.NewReader(launch.GetTokens()))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Fresh tokens replace the launch context's own for containers started
// from then on; its secrets (the application secret) stay, and a launch
// context handed to a start under way is left as it was.
func TestSetTokensKeepsTheSecretsAndTheStartsUnderWay(t *testing.T) {
	old := credentials.Token{Alias: "nn", Kind: "HDFS_DELEGATION_TOKEN", Service: "nn:8020", Identifier: []byte("old"), Password: []byte("p1")}
	fresh := credentials.Token{Alias: "nn", Kind: "HDFS_DELEGATION_TOKEN", Service: "nn:8020", Identifier: []byte("new"), Password: []byte("p2")}
	secret := credentials.Secret{Alias: "spindle.application.secret", Value: []byte("s3cret")}
	c := &credentials.Credentials{Tokens: []credentials.Token{old}}
	c.AddSecret(secret)
	file, err := c.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	l := New(ipc.Options{}, &hadoopyarn.ContainerLaunchContextProto{Tokens: file}, 1)
	underWay := l.Launch
	if err := l.SetTokens([]credentials.Token{fresh}); err != nil {
		t.Fatal(err)
	}
	got := readTokens(t, l.Launch)
	if !reflect.DeepEqual(got.Tokens, []credentials.Token{fresh}) {
		t.Errorf("tokens %v, want only the fresh one", got.Tokens)
	}
	if v, ok := got.FindSecret(secret.Alias); !ok || string(v) != "s3cret" {
		t.Errorf("the application secret is gone: %v %q", ok, v)
	}
	if was := readTokens(t, underWay); !reflect.DeepEqual(was.Tokens, []credentials.Token{old}) {
		t.Errorf("the launch context a start holds changed: %v", was.Tokens)
	}
}

// A launch context whose credentials cannot be read is refused, saying
// whose they are, rather than losing its secret.
func TestSetTokensRefusesUnreadableCredentials(t *testing.T) {
	l := New(ipc.Options{}, &hadoopyarn.ContainerLaunchContextProto{Tokens: []byte("not credentials")}, 1)
	if err := l.SetTokens(nil); err == nil || !bytes.Contains([]byte(err.Error()), []byte("launch context")) {
		t.Fatalf("err = %v, want the launch context's credentials refused", err)
	}
}
