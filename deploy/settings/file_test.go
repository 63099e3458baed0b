package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// roundTrip writes conf's settings and reads them back, failing unless
// every key has the same value byte for byte.
func roundTrip(t *testing.T, conf *config.Config) *config.Config {
	t.Helper()
	path := filepath.Join(t.TempDir(), "spindle.conf")
	if err := WriteFile(path, conf, nil); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(path)
	if err != nil {
		t.Fatalf("reading back: %v", err)
	}
	want, got := conf.Settings(), back.Settings()
	if len(got) != len(want) {
		t.Fatalf("%d settings back, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Key != want[i].Key || got[i].Value != want[i].Value {
			t.Fatalf("%s=%q came back as %s=%q", want[i].Key, want[i].Value, got[i].Key, got[i].Value)
		}
	}
	return back
}

// A process Spindle starts gets its settings byte for byte, whatever they
// hold: a properties file would unescape backslashes, end a value at a
// newline and trim blanks.
func TestSettingsFileKeepsEveryValueByteForByte(t *testing.T) {
	for _, v := range []string{`C:\jobs\nightly`, `\\server\share`, "two\nlines", "cr\r", "k=v", "a:b", "x = y : z", "ünïcødé ジョブ",
		"  padded  ", "\ttab", "", `"quoted"`, `\u0041`, "# not a comment", "! nor this", "trailing\\", "bell\a"} {
		conf, err := config.Load(nil, []string{"spindle.executorEnv.VALUE=" + v, "spindle.app.name=" + v})
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		back := roundTrip(t, conf)
		if got := back.Prefixed(config.ExecutorEnvPrefix)["VALUE"]; got != v {
			t.Errorf("spindle.executorEnv.VALUE: %q came back as %q", v, got)
		}
	}
}

// A settings file Spindle did not write, or one damaged on the way, is
// refused with the file and line.
func TestSettingsFileRefusesWhatItDidNotWrite(t *testing.T) {
	for text, want := range map[string]string{
		"spindle.app.name=x\n":                         "spindle.conf:1: not a settings file Spindle wrote",
		fileHeader + "\nspindle.app.name=\"x\"\nbad\n": "spindle.conf:3: want KEY=\"VALUE\"",
		fileHeader + "\nspindle.app.name=x\n":          "spindle.conf:2: want KEY=\"VALUE\"",
		fileHeader + "\n=\"x\"\n":                      "spindle.conf:2: want KEY=\"VALUE\"",
		"":                                             "spindle.conf: empty",
		fileHeader + "\nspindle.executor.cores=\"many\"\n": "spindle.conf:2",
	} {
		path := filepath.Join(t.TempDir(), "spindle.conf")
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want it to say %q", text, err, want)
		}
	}
}

// Over replaces a key's value on the way.
func TestSettingsFileOverride(t *testing.T) {
	conf, err := config.Load(nil, []string{"spindle.scheduler.allocation.file=/home/me/pools.xml"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "spindle.conf")
	if err := WriteFile(path, conf, map[string]string{"spindle.scheduler.allocation.file": "fairscheduler.xml"}); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := back.String("spindle.scheduler.allocation.file"); got != "fairscheduler.xml" {
		t.Errorf("allocation file %q, want the override", got)
	}
}

func FuzzSettingsFileRoundTrip(f *testing.F) {
	for _, v := range []string{`a\b`, "x\ny", " ", "=", "\xff\xfe", "\u2028"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		conf, err := config.Load(nil, []string{"spindle.executorEnv.VALUE=" + v})
		if err != nil {
			t.Skip("not a value the command line takes")
		}
		roundTrip(t, conf)
	})
}

// What the submitter set arrives set, and nothing else: a key left at its
// default stays unset for the reader, so a check on what the user set
// (an executorIdleTimeout that would do nothing) does not refuse the
// defaults on the AM's side. A file with nothing set still reads.
func TestSettingsFileKeepsWhatWasSetApart(t *testing.T) {
	conf, err := config.Load(nil, []string{"spindle.dynamicAllocation.enabled=true", "spindle.dynamicAllocation.surplusIdleTimeout=3s"})
	if err != nil {
		t.Fatal(err)
	}
	back := roundTrip(t, conf)
	for _, st := range conf.Settings() {
		if back.IsSet(st.Key) != conf.IsSet(st.Key) {
			t.Errorf("%s: set %v on the way in, %v on the way out", st.Key, conf.IsSet(st.Key), back.IsSet(st.Key))
		}
	}
	if !back.IsSet("spindle.dynamicAllocation.surplusIdleTimeout") || back.IsSet("spindle.dynamicAllocation.executorIdleTimeout") {
		t.Error("want surplusIdleTimeout set, executorIdleTimeout at its default")
	}
	empty, err := config.Load(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, empty)
}
