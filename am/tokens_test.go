package am

import (
	"bytes"
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
)

// nextCredentials reads conn until the driver sends a credentials file,
// and returns its tokens.
func nextCredentials(t *testing.T, conn *wire.Conn) []credentials.Token {
	t.Helper()
	for {
		m, err := conn.Recv()
		if err != nil {
			t.Fatalf("waiting for credentials: %v", err)
		}
		if c := m.GetCredentials(); c != nil {
			creds, err := credentials.Read(bytes.NewReader(c.GetFile()))
			if err != nil {
				t.Fatal(err)
			}
			return creds.Tokens
		}
	}
}

// Fresh delegation tokens go to the loop, which owns them: the executors
// connected get them as a credentials file, one that registers later gets
// them at once, and once Run has returned Tokens has them for the AM's
// own use (removing the staging directory).
func TestFreshTokensReachTheExecutorsAndOutliveTheLoop(t *testing.T) {
	job, err := jobspec.Short("j", 1, []string{"true"}, jobspec.Defaults{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(Config{Core: core.Config{Profiles: []scheduler.Profile{{Cores: 1}}}, Executors: listen(t, testSecret)})
	if err != nil {
		t.Fatal(err)
	}
	ran := make(chan struct{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go func() {
		d.Run(ctx, job, nil)
		close(ran)
	}()
	first, tasks := launches(t, d, nil)
	fresh := []credentials.Token{{Alias: "nn", Kind: "HDFS_DELEGATION_TOKEN", Service: "nn:8020", Identifier: []byte("id"), Password: []byte("pw")}}
	d.UpdateTokens(fresh)
	if got := nextCredentials(t, first); !reflect.DeepEqual(got, fresh) {
		t.Fatalf("the connected executor got %v, want %v", got, fresh)
	}
	dialCtx, stop := context.WithTimeout(ctx, 5*time.Second)
	defer stop()
	later, err := wire.Dial(dialCtx, "tcp", d.Addr(), testSecret)
	if err != nil {
		t.Fatal(err)
	}
	defer later.Close()
	later.Send(&wire.Envelope{Message: &wire.Envelope_Register{Register: &wire.Register{ExecutorId: "e2", Host: "h2", Cores: 1}}})
	if got := nextCredentials(t, later); !reflect.DeepEqual(got, fresh) {
		t.Fatalf("an executor registering later got %v, want %v", got, fresh)
	}
	report(first, tasks[0], wire.Status_SUCCEEDED, "")
	select {
	case <-ran:
	case <-ctx.Done():
		t.Fatal("the job did not end")
	}
	if got := d.Tokens(); !reflect.DeepEqual(got, fresh) {
		t.Fatalf("Tokens after Run = %v, want the fresh ones %v", got, fresh)
	}
}
