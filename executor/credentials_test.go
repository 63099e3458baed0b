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
	secret := wire.NewSecret()
	ln, err := wire.Listen("tcp", "127.0.0.1:0", secret)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "container_tokens")
	old := &credentials.Credentials{}
	old.AddToken(credentials.Token{Alias: "127.0.0.1:8020", Kind: "HDFS_DELEGATION_TOKEN", Service: "127.0.0.1:8020", Identifier: []byte("old"), Password: []byte("p")})
	if err := old.WriteFile(tokenFile, credentials.DefaultVersion); err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() {
		served <- Serve(ctx, Config{ID: "exec-1", AppID: "app-1", Host: "h", DriverAddr: ln.Addr().String(), Secret: secret, Cores: 1,
			LogDir: dir, WorkDir: dir, TokenFile: tokenFile})
	}()
	conn, err := ln.Accept(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if m, err := conn.Recv(); err != nil || m.GetRegister() == nil {
		t.Fatalf("first message %v, %v; want Register", m, err)
	}
	conn.Send(&wire.Envelope{Message: &wire.Envelope_Registered{Registered: &wire.Registered{}}})
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
