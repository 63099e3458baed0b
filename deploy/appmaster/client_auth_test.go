package appmaster

import (
	"crypto/hmac"
	"crypto/sha1"
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/amtest"
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
	d := amtest.StartSession(t, amtest.WithCore(func(c *core.Config) {
		c.AppID, c.Profiles = "application_1795000000000_0003", []scheduler.Profile{{Cores: 2}}
	}), amtest.WithConfig(func(c *am.Config) { c.ClientAuth = clientAuth(yarn.ClientTokenVerifier{MasterKey: key, App: app}, acl) }))
	as := func(tok *wire.ClientToken, m *wire.Envelope) *wire.Envelope {
		m.ClientToken = tok
		return m
	}
	list := func(tok *wire.ClientToken) *wire.Envelope { return as(tok, amtest.ListJobs()) }
	stop := func(tok *wire.ClientToken) *wire.Envelope { return as(tok, amtest.StopSession("test")) }
	submitAs := func(tok *wire.ClientToken, name string) *wire.Envelope {
		return as(tok, amtest.SubmitJob("name: "+name+"\nstages:\n  - {name: s, tasks: 1, command: [\"sleep\", \"60\"]}\n", false))
	}
	cancelJob := func(tok *wire.ClientToken) *wire.Envelope { return as(tok, amtest.CancelJob(0, "test")) }
	stats := func(tok *wire.ClientToken) *wire.Envelope {
		return as(tok, &wire.Envelope{Message: &wire.Envelope_StatsRequest{StatsRequest: &wire.StatsRequest{}}})
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
		out, err := d.Client().Request(tc.req)
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
			if jobs, _ := d.Client().Request(list(token("alice@EXAMPLE.COM", key))); jobStates(jobs) != "owners/default/RUNNING" {
				t.Errorf("after %s: jobs %s, want the owner's alone, running", tc.name, jobStates(jobs))
			}
		}
	}
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
