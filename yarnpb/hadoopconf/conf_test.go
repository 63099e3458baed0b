package hadoopconf

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// confOf merges inline site files r1.xml, r2.xml, ... into a new Conf.
func confOf(t *testing.T, env Env, docs ...string) *Conf {
	t.Helper()
	c := New(env)
	for i, doc := range docs {
		r, err := Parse(strings.NewReader(doc), fmt.Sprintf("r%d.xml", i+1))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func prop(name, value string) string {
	return "<property><name>" + name + "</name><value>" + value + "</value></property>"
}

func finalProp(name, value string) string {
	return "<property><name>" + name + "</name><value>" + value + "</value><final>true</final></property>"
}

func TestMergeRules(t *testing.T) {
	tests := []struct {
		name    string
		docs    []string
		key     string
		want    string // "" with set false: no value
		set     bool
		ignored []string // positions of ignored overrides
	}{
		{"later resource wins", []string{site(prop("k", "1")), site(prop("k", "2")), site(prop("k", "3"))}, "k", "3", true, nil},
		{"later in the same file wins", []string{site(prop("k", "1") + prop("k", "2"))}, "k", "2", true, nil},
		{"final in earlier resource holds", []string{site(finalProp("k", "1")), site(prop("k", "2")), site(prop("k", "3"))}, "k", "1", true, []string{"r2.xml:3:1", "r3.xml:3:1"}},
		{"final holds within a file", []string{site(finalProp("k", "1") + "\n" + prop("k", "2"))}, "k", "1", true, []string{"r1.xml:4:1"}},
		{"final can be overridden before it is final", []string{site(prop("k", "0")), site(finalProp("k", "1")), site(prop("k", "2"))}, "k", "1", true, []string{"r3.xml:3:1"}},
		{"same value again is no override", []string{site(finalProp("k", "1")), site(prop("k", "1"))}, "k", "1", true, nil},
		{"empty value keeps earlier value", []string{site(prop("k", "1")), site(`<property><name>k</name><value/></property>`)}, "k", "1", true, nil},
		{"short-form empty value sets empty", []string{site(prop("k", "1")), site(`<property name="k" value=""/>`)}, "k", "", true, nil},
		{"final without value closes the key", []string{site(`<property><name>k</name><final>true</final></property>`), site(prop("k", "2"))}, "k", "", false, []string{"r2.xml:3:1"}},
		{"final attribute", []string{site(`<property name="k" value="1" final="true"/>`), site(prop("k", "2"))}, "k", "1", true, []string{"r2.xml:3:1"}},
		{"deprecated name is the new key", []string{site(prop("fs.default.name", "hdfs://old")), site(prop("fs.defaultFS", "hdfs://new"))}, "fs.default.name", "hdfs://new", true, nil},
		{"final deprecated name closes the new key", []string{site(finalProp("fs.default.name", "hdfs://old")), site(prop("fs.defaultFS", "hdfs://new"))}, "fs.defaultFS", "hdfs://old", true, []string{"r2.xml:3:1"}},
		{"built-in default under the files", nil, "yarn.resourcemanager.hostname", "0.0.0.0", true, nil},
		{"file over built-in default", []string{site(prop("yarn.resourcemanager.hostname", "rm"))}, "yarn.resourcemanager.hostname", "rm", true, nil},
		{"unknown key", []string{site(prop("k", "1"))}, "j", "", false, nil},
		{"key is trimmed", []string{site(prop("k", "1"))}, " k ", "1", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := confOf(t, Env{}, tt.docs...)
			got, ok := c.Get(tt.key)
			if got != tt.want || ok != tt.set {
				t.Errorf("Get(%q) = %q, %v; want %q, %v", tt.key, got, ok, tt.want, tt.set)
			}
			var ignored []string
			for _, o := range c.IgnoredOverrides() {
				ignored = append(ignored, o.At.String())
			}
			if !reflect.DeepEqual(ignored, tt.ignored) {
				t.Errorf("ignored overrides at %v, want %v", ignored, tt.ignored)
			}
		})
	}
}

func TestIgnoredOverrideReport(t *testing.T) {
	c := confOf(t, Env{}, site(finalProp("k", "1")), site(prop("k", "2")))
	o := c.IgnoredOverrides()
	want := []IgnoredOverride{{Key: "k", Value: "2", At: Pos{"r2.xml", 3, 1}, FinalAt: Pos{"r1.xml", 3, 1}}}
	if !reflect.DeepEqual(o, want) {
		t.Fatalf("IgnoredOverrides = %+v, want %+v", o, want)
	}
	if s := o[0].String(); s != "r2.xml:3:1: attempt to override final parameter k (final at r1.xml:3:1); ignored" {
		t.Errorf("String = %q", s)
	}
	if !c.IsFinal("k") || c.IsFinal("j") {
		t.Error("IsFinal wrong")
	}
}

func TestSetWinsOverFinal(t *testing.T) {
	c := confOf(t, Env{}, site(finalProp("k", "1")))
	c.Set(" k ", "2")
	if v, _ := c.Get("k"); v != "2" {
		t.Errorf("Get = %q after Set", v)
	}
	if pos, _ := c.Source("k"); pos.String() != "set programmatically" {
		t.Errorf("Source = %v", pos)
	}
}

func TestSourceKeysAndHadoopConf(t *testing.T) {
	env := Env{System: map[string]string{"user.name": "alice"}}
	c := confOf(t, env, site(prop("b", "${user.name}")+"\n"+prop("a", "1")))
	if pos, ok := c.Source("a"); !ok || pos.String() != "r1.xml:4:1" {
		t.Errorf("Source(a) = %v, %v", pos, ok)
	}
	if pos, ok := c.Source("fs.defaultFS"); !ok || pos.String() != "core-default.xml (built in)" {
		t.Errorf("Source(fs.defaultFS) = %v, %v", pos, ok)
	}
	if _, ok := c.Source("nope"); ok {
		t.Error("Source(nope) found")
	}
	if got := c.Keys(); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("Keys = %v", got)
	}
	hc := c.HadoopConf()
	if !reflect.DeepEqual(map[string]string(hc), map[string]string{"a": "1", "b": "alice"}) {
		t.Errorf("HadoopConf = %v", hc)
	}
	if nns := hc.Namenodes(); nns != nil {
		t.Errorf("Namenodes = %v without fs.defaultFS; built-in defaults leaked", nns)
	}
}

func TestHadoopConfNamenodes(t *testing.T) {
	c := confOf(t, Env{}, site(prop("fs.defaultFS", "hdfs://${nn}")+prop("nn", "nn1:8020")))
	if got := c.HadoopConf().Namenodes(); !reflect.DeepEqual(got, []string{"nn1:8020"}) {
		t.Errorf("Namenodes = %v", got)
	}
}

func TestConfWriteXMLRoundTrip(t *testing.T) {
	c := confOf(t, Env{},
		site(finalProp("closed", "1")+prop("open", "a&#10;&#9;b &lt;&amp;&gt; &quot;q&quot; ")+prop("empty", "x")),
		site(`<property name="empty" value=""/><property><name>novalue</name><final>true</final></property>`))
	c.Set("set", "${closed}\r\n <&>")
	var buf bytes.Buffer
	if err := c.WriteXML(&buf); err != nil {
		t.Fatal(err)
	}
	back := confOf(t, Env{}, buf.String())
	for _, k := range []string{"closed", "open", "empty", "set", "novalue"} {
		rawA, okA := c.Raw(k)
		rawB, okB := back.Raw(k)
		if rawA != rawB || okA != okB || c.IsFinal(k) != back.IsFinal(k) {
			t.Errorf("%s: %q,%v final %v written; %q,%v final %v read back", k, rawA, okA, c.IsFinal(k), rawB, okB, back.IsFinal(k))
		}
	}
	if !reflect.DeepEqual(c.Keys(), back.Keys()) {
		t.Errorf("keys %v, read back %v", c.Keys(), back.Keys())
	}
}

func TestWriteXMLRefusesWhatXMLCannotCarry(t *testing.T) {
	for _, p := range []*Property{
		{Name: "k", Value: "nul\x00", HasValue: true},
		{Name: "k", Value: "bad \xff utf-8", HasValue: true},
		{Name: " k", Value: "v", HasValue: true},
		{Name: "", Value: "v", HasValue: true},
	} {
		r := &Resource{Items: []Item{p}}
		if err := r.WriteXML(&bytes.Buffer{}); err == nil {
			t.Errorf("WriteXML(%+v) succeeded", *p)
		}
	}
}
