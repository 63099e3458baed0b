package scheduler

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

func TestParseAllocationsSparkExample(t *testing.T) {
	const path = "testdata/allocations/fairscheduler.xml"
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := ParseAllocations(f, path)
	if err != nil {
		t.Fatal(err)
	}
	want := []PoolConfig{
		{Name: "production", Mode: FAIR, Weight: 1, MinShare: 2},
		{Name: "test", Mode: FIFO, Weight: 2, MinShare: 3},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestParseAllocations(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want []PoolConfig
	}{
		{"empty allocations", `<allocations/>`, nil},
		{"empty allocations with declaration and comment", `<?xml version="1.0" encoding="UTF-8"?>
<!-- no pools yet -->
<allocations>
</allocations>
`, nil},
		{"defaults", `<allocations><pool name="a"/><pool name="b"></pool></allocations>`,
			[]PoolConfig{DefaultPoolConfig("a"), DefaultPoolConfig("b")}},
		{"some settings", `<allocations><pool name="a"><minShare>4</minShare></pool></allocations>`,
			[]PoolConfig{{Name: "a", Mode: FIFO, Weight: 1, MinShare: 4}}},
		{"mode in any case", `<allocations>
  <pool name="a"><schedulingMode>fAiR</schedulingMode></pool>
  <pool name="b"><schedulingMode>fifo</schedulingMode></pool>
</allocations>`,
			[]PoolConfig{{Name: "a", Mode: FAIR, Weight: 1}, {Name: "b", Mode: FIFO, Weight: 1}}},
		{"values trimmed", "<allocations><pool name=\"a\">\n" +
			"  <schedulingMode>\n\tFAIR\r\n  </schedulingMode>\n" +
			"  <weight> 3 </weight>\n" +
			"  <minShare>\t0\t</minShare>\n" +
			"</pool></allocations>",
			[]PoolConfig{{Name: "a", Mode: FAIR, Weight: 3, MinShare: 0}}},
		// Spark's XML library leaves comments out of an element's text too.
		{"comments anywhere", `<!-- a --><allocations><!-- b -->
  <pool name="a"><!-- c --><weight><!-- d -->1<!-- e -->0</weight><!-- f --></pool>
</allocations><!-- g -->`,
			[]PoolConfig{{Name: "a", Mode: FIFO, Weight: 10}}},
		{"file order kept", `<allocations>
  <pool name="zeta"><weight>3</weight></pool>
  <pool name="alpha"><weight>1</weight></pool>
  <pool name="mu"><weight>2</weight></pool>
</allocations>`,
			[]PoolConfig{{Name: "zeta", Weight: 3}, {Name: "alpha", Weight: 1}, {Name: "mu", Weight: 2}}},
		// Java's Integer.parseInt, which Spark uses, takes a sign too.
		{"sign and bounds", `<allocations><pool name="a"><weight>+2147483647</weight><minShare>-0</minShare></pool></allocations>`,
			[]PoolConfig{{Name: "a", Weight: 2147483647, MinShare: 0}}},
		{"CDATA and references", `<allocations><pool name="R&amp;D &#x1F680;"><weight><![CDATA[2]]></weight><minShare>&#49;</minShare></pool></allocations>`,
			[]PoolConfig{{Name: "R&D 🚀", Weight: 2, MinShare: 1}}},
		{"default pool configured", `<allocations><pool name="default"><schedulingMode>FAIR</schedulingMode></pool></allocations>`,
			[]PoolConfig{{Name: "default", Mode: FAIR, Weight: 1}}},
		{"names are case-sensitive", `<allocations><pool name="a"/><pool name="A"/></allocations>`,
			[]PoolConfig{DefaultPoolConfig("a"), DefaultPoolConfig("A")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseAllocations(strings.NewReader(tc.in), "t.xml")
			if err != nil {
				t.Fatal(err)
			}
			if got == nil || !slices.Equal(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// pools wraps the body of one pool "p" in a file whose pool starts on line
// 2, column 3, and whose body starts on line 3, column 5.
func pools(body string) string {
	return "<allocations>\n  <pool name=\"p\">\n    " + body + "\n  </pool>\n</allocations>\n"
}

func TestParseAllocationsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		// The document.
		{"empty input", "", `t.xml:1:1: no <allocations> element`},
		{"only a comment", "<!-- nothing -->\n", `t.xml:2:1: no <allocations> element`},
		{"malformed", "<allocations>\n<pool name=\"a\">\n</allocations>",
			`t.xml:3: malformed XML: element <pool> closed by </allocations>`},
		{"unclosed", "<allocations>\n<pool name=\"a\">", `t.xml:2: malformed XML: unexpected EOF`},
		{"undefined entity", pools(`<weight>&two;</weight>`), `t.xml:3: malformed XML: invalid character entity &two;`},
		{"not UTF-8", "<allocations>\xff</allocations>", `t.xml:1: malformed XML: invalid UTF-8`},
		{"other encoding", `<?xml version="1.0" encoding="ISO-8859-1"?><allocations/>`,
			`t.xml:1:1: xml: encoding "ISO-8859-1" declared but Decoder.CharsetReader is nil`},
		{"other root", "<!-- pools -->\n<pools/>", `t.xml:2:1: root element <pools>, want <allocations>`},
		{"root miscased", "<Allocations/>", `t.xml:1:1: root element <Allocations>, want <allocations>`},
		{"two roots", "<allocations/>\n<allocations/>", `t.xml:2:1: unexpected element <allocations> after </allocations>`},
		{"text after root", "<allocations/>\noops", `t.xml:1:15: unexpected text "oops" after </allocations>`},
		{"text before root", "oops<allocations/>", `t.xml:1:1: unexpected text "oops" before <allocations>`},
		{"DOCTYPE", `<!DOCTYPE allocations><allocations/>`, `t.xml:1:1: unexpected <!DOCTYPE allocations> before <allocations>`},
		{"processing instruction", "<allocations>\n  <?php echo 1 ?>\n</allocations>", `t.xml:2:3: unexpected <?php?> in <allocations>`},
		{"attribute on root", `<allocations version="2"/>`, `t.xml:1:1: <allocations> takes no attributes, has "version"`},
		{"namespaced root", `<allocations xmlns="urn:spark"/>`, `t.xml:1:1: root element <urn:spark:allocations>, want <allocations>`},

		// <allocations>'s children.
		{"unknown top-level element", "<allocations>\n  <queue name=\"a\"/>\n</allocations>",
			`t.xml:2:3: unknown element <queue> in <allocations>`},
		{"misspelt pool", "<allocations>\n  <Pool name=\"a\"/>\n</allocations>",
			`t.xml:2:3: unknown element <Pool> in <allocations> (did you mean <pool>?)`},
		{"namespaced pool", `<allocations><x:pool name="a"/></allocations>`,
			`t.xml:1:14: unknown element <x:pool> in <allocations> (did you mean <pool>?)`},
		{"text in allocations", "<allocations>\n  production\n</allocations>", `t.xml:1:14: unexpected text "production" in <allocations>`},

		// A pool's name and attributes.
		{"pool without name", "<allocations>\n  <pool><weight>2</weight></pool>\n</allocations>", `t.xml:2:3: <pool> without a name attribute`},
		{"empty name", "<allocations>\n  <pool name=\"\"/>\n</allocations>", `t.xml:2:3: <pool> with an empty name`},
		{"blank name", "<allocations>\n  <pool name=\" \t\"/>\n</allocations>", `t.xml:2:3: <pool> with an empty name`},
		{"space-padded name", "<allocations>\n  <pool name=\" a\"/>\n</allocations>", `t.xml:2:3: pool " a": name has leading or trailing space`},
		{"other attribute", "<allocations>\n  <pool name=\"a\" weight=\"2\"/>\n</allocations>",
			`t.xml:2:3: <pool> attribute "weight": only name is allowed`},
		{"miscased name attribute", "<allocations>\n  <pool Name=\"a\"/>\n</allocations>",
			`t.xml:2:3: <pool> attribute "Name": only name is allowed`},
		{"two names", "<allocations>\n  <pool name=\"a\" name=\"b\"/>\n</allocations>", `t.xml:2:3: <pool> has two name attributes`},
		{"duplicate pool", "<allocations>\n  <pool name=\"a\"/>\n  <pool name=\"b\"/>\n  <pool name=\"a\"><weight>2</weight></pool>\n</allocations>",
			`t.xml:4:3: pool "a": defined again (first at line 2)`},
		{"nested pool", pools(`<pool name="q"/>`), `t.xml:3:5: pool "p": unknown element <pool>`},

		// A pool's settings.
		{"unknown element", pools(`<priority>1</priority>`), `t.xml:3:5: pool "p": unknown element <priority>`},
		{"miscased minShare", pools(`<minshare>2</minshare>`), `t.xml:3:5: pool "p": unknown element <minshare> (did you mean <minShare>?)`},
		{"miscased weight", pools(`<Weight>2</Weight>`), `t.xml:3:5: pool "p": unknown element <Weight> (did you mean <weight>?)`},
		{"misspelt weight", pools(`<wieght>2</wieght>`), `t.xml:3:5: pool "p": unknown element <wieght> (did you mean <weight>?)`},
		{"misspelt mode", pools(`<schedulingModes>FAIR</schedulingModes>`),
			`t.xml:3:5: pool "p": unknown element <schedulingModes> (did you mean <schedulingMode>?)`},
		{"repeated element", pools("<weight>1</weight>\n    <weight>2</weight>"), `t.xml:4:5: pool "p": <weight> given twice`},
		{"text in pool", pools(`weight 2`), `t.xml:2:18: unexpected text "weight 2" in pool "p"`},
		{"element in value", pools(`<weight><value>2</value></weight>`), `t.xml:3:13: unexpected element <value> in <weight> of pool "p"`},
		{"attribute on value", pools(`<weight unit="tasks">2</weight>`), `t.xml:3:5: <weight> takes no attributes, has "unit"`},

		// Values.
		{"mode unknown", pools(`<schedulingMode>FAIRER</schedulingMode>`), `t.xml:3:5: pool "p": schedulingMode "FAIRER": want FIFO or FAIR`},
		{"mode NONE", pools(`<schedulingMode>NONE</schedulingMode>`), `t.xml:3:5: pool "p": schedulingMode "NONE": want FIFO or FAIR`},
		{"mode empty", pools(`<schedulingMode/>`), `t.xml:3:5: pool "p": schedulingMode "": want FIFO or FAIR`},
		{"weight not a number", pools(`<weight>two</weight>`), `t.xml:3:5: pool "p": weight "two": not an integer`},
		{"weight fraction", pools(`<weight>1.5</weight>`), `t.xml:3:5: pool "p": weight "1.5": not an integer`},
		{"weight empty", pools(`<weight> </weight>`), `t.xml:3:5: pool "p": weight "": not an integer`},
		{"weight underscore", pools(`<weight>1_000</weight>`), `t.xml:3:5: pool "p": weight "1_000": not an integer`},
		{"weight zero", pools(`<weight>0</weight>`), `t.xml:3:5: pool "p": weight "0": must be at least 1`},
		{"weight negative", pools(`<weight>-1</weight>`), `t.xml:3:5: pool "p": weight "-1": must be at least 1`},
		{"weight beyond Int", pools(`<weight>2147483648</weight>`), `t.xml:3:5: pool "p": weight "2147483648": must be at most 2147483647`},
		{"weight beyond int64", pools(`<weight>99999999999999999999</weight>`),
			`t.xml:3:5: pool "p": weight "99999999999999999999": must be at most 2147483647`},
		{"minShare not a number", pools(`<minShare>2 cores</minShare>`), `t.xml:3:5: pool "p": minShare "2 cores": not an integer`},
		{"minShare negative", pools(`<minShare>-1</minShare>`), `t.xml:3:5: pool "p": minShare "-1": must be at least 0`},
		{"minShare far below Int", pools(`<minShare>-99999999999</minShare>`), `t.xml:3:5: pool "p": minShare "-99999999999": must be at least 0`},
		{"long value clipped", pools(`<weight>` + strings.Repeat("9x", 100) + `</weight>`),
			`t.xml:3:5: pool "p": weight "9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x...": not an integer`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseAllocations(strings.NewReader(tc.in), "t.xml")
			if err == nil {
				t.Fatalf("got %+v, want error %s", got, tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("got error\n\t%s\nwant\n\t%s", err, tc.want)
			}
		})
	}
}

// The example in the brief: the error names the file, line, pool and value.
func TestParseAllocationsErrorNamesLine(t *testing.T) {
	const in = `<?xml version="1.0"?>
<allocations>
  <pool name="test">
    <weight>2</weight>
  </pool>
  <pool name="production">
    <weight>two</weight>
  </pool>
</allocations>
`
	_, err := ParseAllocations(strings.NewReader(in), "fairscheduler.xml")
	const want = `fairscheduler.xml:7:5: pool "production": weight "two": not an integer`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestParseAllocationsReadError(t *testing.T) {
	_, err := ParseAllocations(iotest.ErrReader(iotest.ErrTimeout), "t.xml")
	if err == nil || err.Error() != "t.xml: timeout" {
		t.Errorf("got %v, want t.xml: timeout", err)
	}
}

func TestParseAllocationsLimits(t *testing.T) {
	var many strings.Builder
	many.WriteString("<allocations>\n")
	for i := range maxAllocationPools {
		fmt.Fprintf(&many, "<pool name=\"p%d\"/>\n", i)
	}
	full := many.String() + "</allocations>\n"
	got, err := ParseAllocations(strings.NewReader(full), "t.xml")
	if err != nil || len(got) != maxAllocationPools {
		t.Fatalf("%d pools: got %d pools, %v", maxAllocationPools, len(got), err)
	}

	tooMany := many.String() + "<pool name=\"last\"/>\n</allocations>\n"
	_, err = ParseAllocations(strings.NewReader(tooMany), "t.xml")
	if want := fmt.Sprintf("t.xml:%d:1: more than 10000 pools", maxAllocationPools+2); err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}

	// Exactly 1 MiB is read; one byte more is refused before parsing.
	pad := func(n int) string {
		doc := "<allocations/><!---->"
		return doc[:len(doc)-3] + strings.Repeat(" ", n-len(doc)) + "-->"
	}
	if _, err := ParseAllocations(strings.NewReader(pad(maxAllocationsBytes)), "t.xml"); err != nil {
		t.Errorf("1 MiB: %v", err)
	}
	_, err = ParseAllocations(strings.NewReader(pad(maxAllocationsBytes+1)), "t.xml")
	if want := "t.xml: larger than 1048576 bytes: not an allocation file"; err == nil || err.Error() != want {
		t.Errorf("1 MiB + 1: got %v, want %s", err, want)
	}
}
