package appmaster

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"errors"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// A session on a secure cluster admits a request only with a client-to-AM
// token of its application, and then only what the ACL lets its client
// do: here bob may view and not modify, alice may both.
func TestSecureSessionWantsClientTokens(t *testing.T) {
	key := []byte("client-to-am master key")
	app := &hadoopyarn.ApplicationIdProto{ClusterTimestamp: proto.Int64(1795000000000), Id: proto.Int32(3)}
	token := func(client string, k []byte) *wire.ClientToken {
		id, err := proto.Marshal(&hadoopyarn.ClientToAMTokenIdentifierProto{
			AppAttemptId: &hadoopyarn.ApplicationAttemptIdProto{ApplicationId: app, AttemptId: proto.Int32(1)}, ClientName: proto.String(client)})
		if err != nil {
			t.Fatal(err)
		}
		mac := hmac.New(sha1.New, k)
		mac.Write(id)
		return &wire.ClientToken{Identifier: id, Password: mac.Sum(nil)}
	}
	acl := func(client string, modify bool) error {
		if client == "alice@EXAMPLE.COM" || (client == "bob@EXAMPLE.COM" && !modify) {
			return nil
		}
		return errors.New("not allowed")
	}
	d := startSession(t, clientAuth(yarn.ClientTokenVerifier{MasterKey: key, App: app}, acl))
	list := func(tok *wire.ClientToken) *wire.Envelope {
		return &wire.Envelope{Message: &wire.Envelope_ListJobs{ListJobs: &wire.ListJobs{}}, ClientToken: tok}
	}
	stop := func(tok *wire.ClientToken) *wire.Envelope {
		return &wire.Envelope{Message: &wire.Envelope_StopSession{StopSession: &wire.StopSession{Reason: "test"}}, ClientToken: tok}
	}
	submitAs := func(tok *wire.ClientToken, name string) *wire.Envelope {
		m := submit("name: " + name + "\nstages:\n  - {name: s, tasks: 1, command: [\"sleep\", \"60\"]}\n")
		m.ClientToken = tok
		return m
	}
	cancelJob := func(tok *wire.ClientToken) *wire.Envelope {
		return &wire.Envelope{Message: &wire.Envelope_CancelJob{CancelJob: &wire.CancelJob{JobId: 0, Reason: "test"}}, ClientToken: tok}
	}
	stats := func(tok *wire.ClientToken) *wire.Envelope {
		return &wire.Envelope{Message: &wire.Envelope_StatsRequest{StatsRequest: &wire.StatsRequest{}}, ClientToken: tok}
	}
	for _, tc := range []struct {
		name   string
		req    *wire.Envelope
		refuse string // "" : answered
	}{
		{"no token", list(nil), "needs the client-to-AM token"},
		{"a token of another key", list(token("alice@EXAMPLE.COM", []byte("forged"))), "not the RM's"},
		{"the owner submits", submitAs(token("alice@EXAMPLE.COM", key), "owners"), ""},
		{"a viewer lists", list(token("bob@EXAMPLE.COM", key)), ""},
		{"a viewer's stats", stats(token("bob@EXAMPLE.COM", key)), ""},
		{"a viewer submits", submitAs(token("bob@EXAMPLE.COM", key), "viewers"), "bob@EXAMPLE.COM: not allowed"},
		{"a viewer cancels", cancelJob(token("bob@EXAMPLE.COM", key)), "bob@EXAMPLE.COM: not allowed"},
		{"a viewer stops", stop(token("bob@EXAMPLE.COM", key)), "bob@EXAMPLE.COM: not allowed"},
		{"a stranger lists", list(token("eve@EXAMPLE.COM", key)), "eve@EXAMPLE.COM: not allowed"},
		{"the owner stops", stop(token("alice@EXAMPLE.COM", key)), ""},
	} {
		out, err := request(t, d, tc.req)
		if err != nil || len(out) != 1 {
			t.Fatalf("%s: %v, %v", tc.name, out, err)
		}
		got := out[0].GetRejected().GetReason()
		if tc.refuse == "" && out[0].GetRejected() != nil {
			t.Errorf("%s: refused: %s", tc.name, got)
		}
		if tc.refuse != "" && !strings.Contains(got, tc.refuse) {
			t.Errorf("%s: answered %v, want a refusal saying %q", tc.name, out[0], tc.refuse)
		}
		// What the viewer was refused left the session as it was: the
		// owner's job alone, still running.
		if strings.HasPrefix(tc.name, "a viewer") {
			if jobs, _ := request(t, d, list(token("alice@EXAMPLE.COM", key))); jobStates(jobs) != "owners/default/RUNNING" {
				t.Errorf("after %s: jobs %s, want the owner's alone, running", tc.name, jobStates(jobs))
			}
		}
	}
}

// sessionSecret is the secret the session's clients prove they hold.
var sessionSecret = []byte("fedcba9876543210fedcba9876543210")

// startSession runs a session driver whose clients auth admits, with no
// executor; it returns where its clients connect.
func startSession(t *testing.T, auth func(*wire.ClientToken, bool) error) string {
	t.Helper()
	listen := func(secret []byte) *wire.Listener {
		ln, err := wire.Listen("tcp", "127.0.0.1:0", secret)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
		return ln
	}
	clients := listen(sessionSecret)
	d, err := am.New(am.Config{Core: core.Config{AppID: "application_1795000000000_0003", Session: true, Profiles: []scheduler.Profile{{Cores: 2}}},
		Executors: listen(testSecret), Clients: clients, ClientAuth: auth, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() {
		d.Run(ctx, nil, nil)
		close(ran)
	}()
	t.Cleanup(func() { cancel(); <-ran })
	return clients.Addr().String()
}

// request sends one session request and returns the answers until the
// session closes the connection.
func request(t *testing.T, addr string, m *wire.Envelope) ([]*wire.Envelope, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := wire.Dial(ctx, "tcp", addr, sessionSecret)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if err := conn.Send(m); err != nil {
		return nil, err
	}
	var out []*wire.Envelope
	for {
		r, err := conn.Recv()
		if err != nil {
			return out, nil
		}
		out = append(out, r)
	}
}

func submit(spec string) *wire.Envelope {
	return &wire.Envelope{Message: &wire.Envelope_SubmitJob{SubmitJob: &wire.SubmitJob{Spec: []byte(spec), Source: "test.yaml", DefaultPool: "default"}}}
}

// jobStates are the jobs a JobList answer names, as name/pool/state.
func jobStates(out []*wire.Envelope) string {
	var s []string
	for _, m := range out {
		for _, j := range m.GetJobList().GetJobs() {
			s = append(s, j.GetName()+"/"+j.GetPool()+"/"+j.GetState())
		}
	}
	return strings.Join(s, " ")
}
