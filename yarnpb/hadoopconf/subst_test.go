package hadoopconf

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func testEnv() Env {
	vars := map[string]string{"HOME_DIR": "/home/alice", "EMPTY": "", "PORT": "9000"}
	return Env{
		Lookup: func(name string) (string, bool) { v, ok := vars[name]; return v, ok },
		System: map[string]string{"user.name": "alice", "java.io.tmpdir": "/tmp", "shadowed": "from-system"},
	}
}

func TestSubstitution(t *testing.T) {
	c := confOf(t, testEnv(), site(
		prop("base", "/data")+
			prop("dir", "${base}/dir")+
			prop("shadowed", "from-conf")+
			prop("env.UNSET", "conf-fallback")+
			prop("self", "a${self}b")+
			prop("loop.a", "${loop.b}")+
			prop("loop.b", "${loop.a}")))
	tests := []struct {
		expr, want string
	}{
		{"plain", "plain"},
		{"${base}", "/data"},
		{"${dir}/x", "/data/dir/x"}, // nested references
		{"${base}${base}", "/data/data"},
		{"${user.name}@${java.io.tmpdir}", "alice@/tmp"},
		{"${hadoop.tmp.dir}", "/tmp/hadoop-alice"}, // built-in default, expanded in turn
		{"${shadowed}", "from-system"},             // system properties before the configuration
		{"${env.HOME_DIR}/x", "/home/alice/x"},
		{"${env.PORT:-1}", "9000"},
		{"${env.EMPTY:-dflt}", "dflt"},
		{"${env.UNSET2:-dflt}", "dflt"},
		{"${env.EMPTY-dflt}", ""},
		{"${env.UNSET2-dflt}", "dflt"},
		{"${env.UNSET2-a-b}", "a-b"},           // split at the first '-'
		{"${env.UNSET2:x}", "${env.UNSET2:x}"}, // ':' without '-' is part of the name
		{"${env.UNSET}", "conf-fallback"},      // unset variable falls back to a key
		{"${env.}", "${env.}"},                 // no name: a key "env." that is unset
		{"${nope}/${base}", "${nope}/${base}"}, // stops at the first unbound reference
		{"${base}/${nope}/${base}", "/data/${nope}/${base}"},
		{"${self}", "${self}"}, // its value contains ${self}: returned unexpanded
		{"x${self}", "x${self}"},
		{"${}", "${}"},
		{"${a b}", "${a b}"},
		{"$${base}", "$/data"},
		{"${${base}}", "${/data}"},
		{"${ba${base}", "${ba/data"},
		{"{base}", "{base}"},
		{"${base", "${base"},
	}
	for _, tt := range tests {
		got, err := c.expand(tt.expr)
		if err != nil || got != tt.want {
			t.Errorf("expand(%q) = %q, %v; want %q", tt.expr, got, err, tt.want)
		}
	}
	if _, _, err := c.Lookup("loop.a"); err == nil || !strings.Contains(err.Error(), "loop.a") || !strings.Contains(err.Error(), "depth") {
		t.Errorf("cycle: err = %v", err)
	}
	if v, ok := c.Get("loop.a"); v != "${loop.b}" || !ok {
		t.Errorf("Get on a cycle = %q, %v; want the raw value", v, ok)
	}
}

// TestSubstitutionDepth checks Hadoop's MAX_SUBST arithmetic: 19
// replacements succeed; a 20th is an error.
func TestSubstitutionDepth(t *testing.T) {
	chain := func(n int) *Conf {
		var b strings.Builder
		for i := 0; i < n-1; i++ {
			b.WriteString(prop(fmt.Sprintf("k%d", i), fmt.Sprintf("${k%d}", i+1)))
		}
		b.WriteString(prop(fmt.Sprintf("k%d", n-1), "end"))
		return confOf(t, Env{}, site(b.String()))
	}
	if v, err := chain(19).expand("${k0}"); err != nil || v != "end" {
		t.Errorf("19 replacements: %q, %v", v, err)
	}
	if _, err := chain(20).expand("${k0}"); err == nil {
		t.Error("20 replacements succeeded")
	}
}

func TestSubstitutionBounded(t *testing.T) {
	big := strings.Repeat("x", maxExpanded/2+1)
	c := confOf(t, Env{}, site(prop("big", big)+prop("twice", "${big}${big}")))
	_, _, err := c.Lookup("twice")
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Key != "twice" || !strings.Contains(ve.Msg, "expands past") {
		t.Errorf("err = %v", err)
	}
}

func TestNilEnv(t *testing.T) {
	c := confOf(t, Env{}, site(prop("k", "${env.HOME}${user.name}")))
	if v, _ := c.Get("k"); v != "${env.HOME}${user.name}" {
		t.Errorf("Get = %q with an empty Env", v)
	}
}
