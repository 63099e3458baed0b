package hadoopconf

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// site wraps property markup in a site file.
func site(body string) string {
	return `<?xml version="1.0"?>` + "\n<configuration>\n" + body + "\n</configuration>\n"
}

func TestParseForms(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []Item
	}{
		{"elements", site(`<property><name> a.b </name><value> v </value><final>true</final><description>x</description><source>s</source><tag>t</tag></property>`),
			[]Item{&Property{Name: "a.b", Value: " v ", HasValue: true, Final: true}}},
		{"short form", site(`<property name="k" value="v" final="true" source="x"/>`),
			[]Item{&Property{Name: "k", Value: "v", HasValue: true, Final: true}}},
		{"short form empty value sets empty", site(`<property name="k" value=""/>`),
			[]Item{&Property{Name: "k", HasValue: true}}},
		{"empty value element is no value", site(`<property><name>k</name><value/></property><property><name>j</name><value></value></property>`),
			[]Item{&Property{Name: "k"}, &Property{Name: "j"}}},
		{"no value element", site(`<property><name>k</name><!--value>x</value--></property>`),
			[]Item{&Property{Name: "k"}}},
		{"white space value kept", site(`<property><name>k</name><value>  </value></property>`),
			[]Item{&Property{Name: "k", Value: "  ", HasValue: true}}},
		{"final false", site(`<property><name>k</name><value>v</value><final>false</final></property>`),
			[]Item{&Property{Name: "k", Value: "v", HasValue: true}}},
		{"entities cdata comments", site(`<property><name>k</name><value>a&amp;b<!-- c --><![CDATA[<x>]]>&#10;</value></property>`),
			[]Item{&Property{Name: "k", Value: "a&b<x>\n", HasValue: true}}},
		{"properties nested in unknown elements", site(`<group><property><name>k</name><value>v</value></property></group>`),
			[]Item{&Property{Name: "k", Value: "v", HasValue: true}}},
		{"unknown element inside property skipped", site(`<property><name>k</name><x><name>no</name></x><value>v</value></property>`),
			[]Item{&Property{Name: "k", Value: "v", HasValue: true}}},
		{"include with fallback", `<configuration xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="a.xml"><xi:fallback><property><name>k</name><value>v</value></property></xi:fallback></xi:include></configuration>`,
			[]Item{&Include{Href: "a.xml", HasFallback: true, Fallback: []Item{&Property{Name: "k", Value: "v", HasValue: true}}}}},
		{"latin1", `<?xml version="1.0" encoding="ISO-8859-1"?><configuration><property><name>k</name><value>caf` + "\xe9" + `</value></property></configuration>`,
			[]Item{&Property{Name: "k", Value: "café", HasValue: true}}},
		{"namespace declarations are no attributes", `<configuration xmlns:name="n"><property xmlns:name="x" xmlns="d" name="k" value="v"/></configuration>`,
			[]Item{&Property{Name: "k", Value: "v", HasValue: true}}},
		{"empty configuration", `<configuration/>`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(strings.NewReader(tt.doc), "t.xml")
			if err != nil {
				t.Fatal(err)
			}
			if got := stripPos(r.Items); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("items = %s, want %s", dump(got), dump(tt.want))
			}
		})
	}
}

func TestParsePositions(t *testing.T) {
	doc := "<configuration>\n  <property>\n    <name>a</name>\n  </property>\n    <property name=\"b\"/>\n</configuration>\n"
	r, err := Parse(strings.NewReader(doc), "p.xml")
	if err != nil {
		t.Fatal(err)
	}
	want := []Pos{{"p.xml", 2, 3}, {"p.xml", 5, 5}}
	for i, it := range r.Items {
		if got := it.Position(); got != want[i] {
			t.Errorf("item %d at %v, want %v", i, got, want[i])
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		pos  string // file:line[:col] the error must name
		msg  string
	}{
		{"no name", site("<property>\n<value>v</value></property>"), "e.xml:3:1", "has no <name>"},
		{"empty name", site(`<property><name> </name><value>v</value></property>`), "e.xml:3:1", "has no <name>"},
		{"second name", site(`<property><name>a</name><name>b</name></property>`), "e.xml:3:25", "second name"},
		{"attribute and element name", site(`<property name="a"><name>b</name></property>`), "e.xml:3:20", "second name"},
		{"second value", site(`<property><name>a</name><value/><value>x</value></property>`), "e.xml:3:33", "second value"},
		{"bad final", site(`<property><name>a</name><final> true</final></property>`), "e.xml:3", `final is " true"`},
		{"bad final attribute", site(`<property name="a" final="yes"/>`), "e.xml:3", `final is "yes"`},
		{"markup in value", site(`<property><name>a</name><value>x<b/></value></property>`), "e.xml:3", "<b> inside <value>"},
		{"nested property", site(`<property><name>a</name><property/></property>`), "e.xml:3", "<property> inside <property>"},
		{"include without href", site(`<include/>`), "e.xml:3", "no href"},
		{"fallback outside include", site(`<fallback/>`), "e.xml:3", "<fallback> outside <include>"},
		{"two fallbacks", site(`<include href="x"><fallback/><fallback/></include>`), "e.xml:3", "second <fallback>"},
		{"property inside include", site(`<include href="x"><property name="a"/></include>`), "e.xml:3", "only <fallback>"},
		{"wrong root", `<properties/>`, "e.xml:1:1", "root element is <properties>"},
		{"second root", `<configuration/><configuration/>`, "e.xml:1:17", "second root"},
		{"text outside", `<configuration/>junk`, "e.xml:1", "text outside"},
		{"empty file", ``, "e.xml", "no <configuration>"},
		{"mismatched tag", site("<property>\n<name>a</name>\n<value>v</valu>\n</property>"), "e.xml:5", "element <value> closed by </valu>"},
		{"unclosed", "<configuration>\n<property>", "e.xml:2", "unexpected EOF"},
		{"bad entity", site(`<property><name>a</name><value>&nbsp;</value></property>`), "e.xml:3", "invalid character entity"},
		{"bad encoding", `<?xml version="1.0" encoding="EBCDIC"?><configuration/>`, "e.xml:1", "unsupported encoding"},
		{"xml 1.1", `<?xml version="1.1"?><configuration/>`, "e.xml:1", "unsupported version"},
		{"too deep", "<configuration>" + strings.Repeat("<a>", maxDepth) + strings.Repeat("</a>", maxDepth) + "</configuration>", "e.xml:1", "nested more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tt.doc), "e.xml")
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if got := pe.Pos.String(); got != tt.pos && !strings.HasPrefix(got, tt.pos+":") {
				t.Errorf("error at %s, want %s: %v", got, tt.pos, err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("err = %v, want it to say %q", err, tt.msg)
			}
		})
	}
}

func TestParseTooLarge(t *testing.T) {
	doc := site(strings.Repeat(" ", maxResourceSize))
	if _, err := Parse(strings.NewReader(doc), "big.xml"); err == nil || !strings.Contains(err.Error(), "big.xml: larger than") {
		t.Fatalf("err = %v", err)
	}
}

// stripPos returns items without positions, for comparing content.
func stripPos(items []Item) []Item {
	var out []Item
	for _, it := range items {
		switch it := it.(type) {
		case *Property:
			p := *it
			p.Pos = Pos{}
			out = append(out, &p)
		case *Include:
			in := *it
			in.Pos = Pos{}
			in.Fallback = stripPos(in.Fallback)
			out = append(out, &in)
		}
	}
	return out
}

func dump(items []Item) string {
	var parts []string
	for _, it := range items {
		switch it := it.(type) {
		case *Property:
			parts = append(parts, fmt.Sprintf("%+v", *it))
		case *Include:
			parts = append(parts, fmt.Sprintf("include(%q, fallback %v: %s)", it.Href, it.HasFallback, dump(it.Fallback)))
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}
