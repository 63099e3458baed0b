package settings

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/deploy/config"
)

func TestAccessList(t *testing.T) {
	for in, want := range map[string]string{"*": "*", " *": "*", "bob,carol": "bob,carol ", "bob, carol": "bob carol", "bob ops,dev": "bob ops,dev", " ops": " ops", "": " "} {
		if got := parseAccessList(in).String(); got != want {
			t.Errorf("parseAccessList(%q) = %q, want %q", in, got, want)
		}
	}
}

// With ACLs on, the owner may do anything, the listed users and groups
// what their list says, and nobody else anything; off, everyone may.
func TestAppACLs(t *testing.T) {
	conf, err := config.Load(nil, []string{"spindle.acls.enable=true", "spindle.ui.view.acls=bob viewers", "spindle.modify.acls=carol"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := ACLs(conf, "alice")
	if err != nil {
		t.Fatal(err)
	}
	a.groupsOf = func(u string) []string {
		if u == "dave" {
			return []string{"staff", "viewers"}
		}
		return nil
	}
	for _, tc := range []struct {
		client string
		modify bool
		ok     bool
	}{
		{"alice@EXAMPLE.COM", true, true},
		{"alice/admin@EXAMPLE.COM", false, true},
		{"bob@EXAMPLE.COM", false, true},
		{"bob@EXAMPLE.COM", true, false},
		{"carol@EXAMPLE.COM", true, true},
		{"carol@EXAMPLE.COM", false, false},
		{"dave@EXAMPLE.COM", false, true},
		{"dave@EXAMPLE.COM", true, false},
		{"eve@EXAMPLE.COM", false, false},
	} {
		err := a.Check(tc.client, tc.modify)
		if (err == nil) != tc.ok {
			t.Errorf("check(%s, modify %v) = %v, want allowed %v", tc.client, tc.modify, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "spindle.acls.enable") {
			t.Errorf("the refusal %q does not say which settings decide", err)
		}
	}
	got := a.YARN()
	if len(got) != 2 || got[0].GetAcl() != "bob,alice viewers" || got[1].GetAcl() != "carol,alice " {
		t.Errorf("YARN's ACLs %v", got)
	}
	off, _ := config.Load(nil, nil)
	if a, _ := ACLs(off, "alice"); a.Check("eve@EXAMPLE.COM", true) != nil || a.YARN() != nil {
		t.Error("with spindle.acls.enable off, someone was refused or YARN got ACLs")
	}
}
