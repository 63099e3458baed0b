package hadoopconf

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse checks that no input makes Parse panic or allocate without
// bound, and that whatever parses is written by WriteXML as a file that
// parses to the same items.
func FuzzParse(f *testing.F) {
	f.Add([]byte(site(prop("k", "v") + finalProp("f", "${k}"))))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(bytes.NewReader(data), "fuzz.xml")
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		var out bytes.Buffer
		if err := r.WriteXML(&out); err != nil {
			t.Fatalf("WriteXML of parsed items: %v", err)
		}
		back, err := Parse(bytes.NewReader(out.Bytes()), "written.xml")
		if err != nil {
			t.Fatalf("written file does not parse: %v\n%s", err, out.Bytes())
		}
		if a, b := stripPos(r.Items), stripPos(back.Items); !reflect.DeepEqual(a, b) {
			t.Fatalf("round trip changed the items:\n%s\n%s", dump(a), dump(b))
		}
	})
}

// FuzzSubstitute checks that expansion of any value, against values and an
// environment that refer to each other, terminates within its bounds
// without panicking, and leaves a value without references alone.
func FuzzSubstitute(f *testing.F) {
	f.Add("${a}/${env.X:-d}", "${b}${b}", "${user.name}")
	f.Add("${a}", "${b}", "${a}")
	f.Add("${env.Y-${a}}", "${", "}")
	f.Fuzz(func(t *testing.T, expr, a, b string) {
		c := New(Env{
			Lookup: func(name string) (string, bool) {
				if name == "X" {
					return a, true
				}
				return "", name == "E"
			},
			System: map[string]string{"user.name": b},
		})
		c.Set("a", a)
		c.Set("b", b)
		c.Set("expr", expr)
		got, err := c.expand(expr)
		if err == nil && len(got) > maxExpanded+len(expr) {
			t.Fatalf("expansion of %d bytes", len(got))
		}
		if !strings.Contains(expr, "${") && (err != nil || got != expr) {
			t.Fatalf("expand(%q) = %q, %v", expr, got, err)
		}
		if _, _, err := c.Lookup("expr"); err != nil {
			if _, ok := err.(*ValueError); !ok {
				t.Fatalf("error of type %T", err)
			}
		}
	})
}
