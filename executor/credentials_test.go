package executor

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
)

func credentialsFile(t *testing.T, c *credentials.Credentials) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := c.Write(&b, credentials.DefaultVersion); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Fresh tokens from the driver replace the tasks' credentials file; a
// file carrying a secret, or one that does not parse, leaves it as it was.
func TestFreshTokensReplaceTheTasksCredentials(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "container_tokens")
	old := &credentials.Credentials{}
	old.AddToken(credentials.Token{Alias: "127.0.0.1:8020", Kind: "HDFS_DELEGATION_TOKEN", Service: "127.0.0.1:8020", Identifier: []byte("old"), Password: []byte("p")})
	if err := old.WriteFile(tokenFile, credentials.DefaultVersion); err != nil {
		t.Fatal(err)
	}
	conn, served := serveRegistered(t, ctx, Config{ID: "exec-1", AppID: "app-1", Host: "h", Cores: 1,
		LogDir: dir, WorkDir: dir, TokenFile: tokenFile})
	task := int32(0)
	// send delivers file, then runs a task: its status back means the
	// executor has handled the message before it.
	send := func(file []byte) {
		t.Helper()
		conn.Send(&wire.Envelope{Message: &wire.Envelope_Credentials{Credentials: &wire.Credentials{File: file}}})
		conn.Send(&wire.Envelope{Message: &wire.Envelope_LaunchBatch{LaunchBatch: &wire.LaunchBatch{Launches: []*wire.Launch{
			{StageId: 1, TaskIndex: task, Job: "j", Stage: "s", TaskCount: 9, Builtin: "noop"}}}}})
		task++
		for {
			m, err := conn.Recv()
			if err != nil {
				t.Fatal(err)
			}
			if len(m.GetStatusBatch().GetStatuses()) > 0 {
				return
			}
		}
	}
	identifier := func() string {
		t.Helper()
		c, err := credentials.ReadFile(tokenFile)
		if err != nil || len(c.Tokens) != 1 {
			t.Fatalf("the credentials file: %v, %v", c, err)
		}
		return string(c.Tokens[0].Identifier)
	}

	fresh := &credentials.Credentials{}
	fresh.AddToken(credentials.Token{Alias: "127.0.0.1:8020", Kind: "HDFS_DELEGATION_TOKEN", Service: "127.0.0.1:8020", Identifier: []byte("new"), Password: []byte("p")})
	send(credentialsFile(t, fresh))
	if got := identifier(); got != "new" {
		t.Fatalf("after fresh tokens the file holds %q", got)
	}

	withSecret := &credentials.Credentials{}
	withSecret.AddToken(credentials.Token{Alias: "a", Kind: "HDFS_DELEGATION_TOKEN", Identifier: []byte("newer"), Password: []byte("p")})
	withSecret.AddSecret(credentials.Secret{Alias: SecretAlias, Value: []byte("s3cret")})
	send(credentialsFile(t, withSecret))
	send([]byte("HDTS garbage"))
	if got := identifier(); got != "new" {
		t.Fatalf("a file with a secret or in pieces replaced the tokens: %q", got)
	}
	conn.Send(&wire.Envelope{Message: &wire.Envelope_Shutdown{Shutdown: &wire.Shutdown{Reason: "done"}}})
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}
