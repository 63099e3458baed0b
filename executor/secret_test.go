package executor

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/yarnpb/credentials"
)

func TestReadSecret(t *testing.T) {
	none := func(string) (string, bool) { return "", false }
	if got, err := ReadSecret("stdin", strings.NewReader("s3cret"), none); err != nil || string(got) != "s3cret" {
		t.Fatalf("stdin: %q, %v", got, err)
	}
	if _, err := ReadSecret("stdin", strings.NewReader(""), none); err == nil {
		t.Fatal("an empty stdin gave a secret")
	}

	path := filepath.Join(t.TempDir(), "container_tokens")
	c := &credentials.Credentials{}
	c.AddSecret(credentials.Secret{Alias: SecretAlias, Value: []byte{1, 2, 3}})
	c.AddSecret(credentials.Secret{Alias: "other", Value: []byte{9}})
	c.AddToken(credentials.Token{Alias: "hdfs", Kind: "HDFS_DELEGATION_TOKEN", Service: "nn:8020", Identifier: []byte{4}, Password: []byte{5}})
	if err := c.WriteFile(path, credentials.DefaultVersion); err != nil {
		t.Fatal(err)
	}
	env := func(k string) (string, bool) { return path, k == credentials.EnvTokenFile }
	if got, err := ReadSecret("credentials", nil, env); err != nil || !bytes.Equal(got, []byte{1, 2, 3}) {
		t.Fatalf("credentials: %v, %v", got, err)
	}
	// The file tasks can read keeps the tokens and other secrets, not the
	// application secret.
	left, err := credentials.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := left.FindSecret(SecretAlias); ok {
		t.Error("the application secret is still in the container's credentials file")
	}
	if _, ok := left.FindSecret("other"); !ok || len(left.Tokens) != 1 {
		t.Errorf("scrubbing lost the rest: %+v", left)
	}
	if _, err := ReadSecret("credentials", nil, none); err == nil || !strings.Contains(err.Error(), credentials.EnvTokenFile) {
		t.Fatalf("no credentials file: err = %v", err)
	}
	empty := filepath.Join(t.TempDir(), "empty_tokens")
	(&credentials.Credentials{}).WriteFile(empty, credentials.DefaultVersion)
	if _, err := ReadSecret("credentials", nil, func(string) (string, bool) { return empty, true }); err == nil || !strings.Contains(err.Error(), SecretAlias) {
		t.Fatalf("credentials without the secret: err = %v", err)
	}
	if _, err := ReadSecret("argv", nil, none); err == nil {
		t.Fatal("an unknown source was accepted")
	}
}
