package config

import (
	"slices"
	"strings"
	"testing"
)

func TestParsePropertiesForms(t *testing.T) {
	type kv = entry
	tests := []struct {
		name string
		text string
		want []kv
	}{
		{"space separator", "spark.master yarn\n", []kv{{"spark.master", "yarn", 1}}},
		{"equals separator", "spark.master=yarn", []kv{{"spark.master", "yarn", 1}}},
		{"colon separator", "spark.master: yarn", []kv{{"spark.master", "yarn", 1}}},
		{"tabs and spaces around separator", "a \t = \t b", []kv{{"a", "b", 1}}},
		{"only the first separator counts", "a = = b", []kv{{"a", "= b", 1}}},
		{"colon inside value", "spark.master spark://h:7077", []kv{{"spark.master", "spark://h:7077", 1}}},
		{"equals inside value", "a=b=c", []kv{{"a", "b=c", 1}}},
		{"key alone", "a\n", []kv{{"a", "", 1}}},
		{"leading blanks", "  \t\fa b", []kv{{"a", "b", 1}}},
		{"trailing spaces trimmed", "a b  \t", []kv{{"a", "b", 1}}},
		{"hash comment", "# a b\nc d", []kv{{"c", "d", 2}}},
		{"bang comment", "  ! a b\nc d", []kv{{"c", "d", 2}}},
		{"hash inside value is not a comment", "a b # note", []kv{{"a", "b # note", 1}}},
		{"blank lines", "\n\n  \t\na b\n\n", []kv{{"a", "b", 4}}},
		{"CRLF", "a b\r\nc d\r\n", []kv{{"a", "b", 1}, {"c", "d", 2}}},
		{"CR alone", "a b\rc d", []kv{{"a", "b", 1}, {"c", "d", 2}}},
		{"continuation", "a one, \\\n    two\nc d", []kv{{"a", "one, two", 1}, {"c", "d", 3}}},
		{"continuation over CRLF", "a x\\\r\n  y", []kv{{"a", "xy", 1}}},
		{"continuation of key", "ab\\\n  c=d", []kv{{"abc", "d", 1}}},
		{"continued line is never a comment", "a x\\\n#y", []kv{{"a", "x#y", 1}}},
		{"comment never continues", "# x\\\na b", []kv{{"a", "b", 2}}},
		{"continuation into blank line ends it", "a x\\\n\nb y", []kv{{"a", "x", 1}, {"b", "y", 3}}},
		{"even backslashes do not continue", "a x\\\\\nb y", []kv{{"a", `x\`, 1}, {"b", "y", 2}}},
		{"backslash at end of text dropped", "a x\\", []kv{{"a", "x", 1}}},
		{"lone backslash line is a fresh start", "\\\n# c\na b", []kv{{"a", "b", 3}}},
		{"duplicates kept in order", "a 1\na 2", []kv{{"a", "1", 1}, {"a", "2", 2}}},
		{"escaped separators in key", `a\=b\:c\ d=e`, []kv{{"a=b:c d", "e", 1}}},
		{"escapes in value", `a x\ty\nz\\w\q`, []kv{{"a", "x\ty\nz\\wq", 1}}},
		{"escaped CR/LF survive the trim", `a \n x \r`, []kv{{"a", "\n x \r", 1}}},
		{"escaped space is still trimmed", `a \ x\ `, []kv{{"a", "x", 1}}},
		{"unicode escape", `a \u0041\u00e9`, []kv{{"a", "Aé", 1}}},
		{"surrogate pair escape", `a \uD83D\uDE00`, []kv{{"a", "😀", 1}}},
		{"UTF-8 text", "a héllo", []kv{{"a", "héllo", 1}}},
		{"byte order mark skipped", "\ufeffa b", []kv{{"a", "b", 1}}},
		{"empty key", "=x", []kv{{"", "x", 1}}},
		{"nothing", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := parseProperties("test.conf", strings.NewReader(tt.text))
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("parse %q\n got %#v\nwant %#v", tt.text, got, tt.want)
			}
		})
	}
}

func TestParsePropertiesErrorsNameFileAndLine(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"short unicode escape", "a b\nc \\u12", `test.conf:2: malformed \uXXXX escape "\\u12"`},
		{"non-hex unicode escape", "c \\u12G4", `test.conf:1: malformed \uXXXX escape "\\u12G4"`},
		{"signed unicode escape", "c \\u+123", `test.conf:1: malformed`},
		{"lone high surrogate", "c \\uD83Dx", `test.conf:1: \uD83D is half of a UTF-16 surrogate pair`},
		{"lone low surrogate", "c \\uDE00", `test.conf:1: \uDE00 is half`},
		{"bad escapes in key and value are one error", "\\u1=\\u2", `test.conf:1: malformed \uXXXX escape "\\u1"`},
		{"invalid UTF-8", "a b\n\nc \xff", "test.conf:3: not valid UTF-8"},
		{"invalid UTF-8 on a continuation line", "a b\\\n\xff", "test.conf:2: not valid UTF-8"},
		{"too large", strings.Repeat("#\n", maxPropertiesBytes), "test.conf: larger than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := parseProperties("test.conf", strings.NewReader(tt.text))
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want) || strings.Contains(errs[0].Error(), "\n") {
				t.Errorf("errors %q, want one line containing %q", errs, tt.want)
			}
		})
	}
}

func TestParsePropertiesKeepsGoingAfterABadLine(t *testing.T) {
	got, errs := parseProperties("test.conf", strings.NewReader("a \\uZZZZ\nb \xfe\nc d\n"))
	if len(errs) != 2 {
		t.Errorf("errors %v, want two", errs)
	}
	if want := []entry{{"c", "d", 3}}; !slices.Equal(got, want) {
		t.Errorf("entries %#v, want %#v", got, want)
	}
}
