package config

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// FuzzParseProperties checks that no input panics the properties reader or
// Load, that every error (every line of Load's) starts with the file's name, that every entry's line is in the
// file, and that writing the entries back out and reading them again gives
// the same entries. Its seeds are testdata/fuzz/FuzzParseProperties.
func FuzzParseProperties(f *testing.F) {
	const name = "fuzz.conf"
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, errs := parseProperties(name, bytes.NewReader(data))
		for _, err := range errs {
			if !strings.HasPrefix(err.Error(), name+":") {
				t.Errorf("error %q does not start with %s:", err, name)
			}
		}
		lines := len(naturalLines(string(data)))
		for _, e := range entries {
			if e.line < 1 || e.line > lines {
				t.Errorf("entry %q on line %d of %d", e.key, e.line, lines)
			}
		}

		var out strings.Builder
		for _, e := range entries {
			out.WriteString(escapeKey(e.key) + "=" + escapeValue(e.value) + "\n")
		}
		again, errs := parseProperties(name, strings.NewReader(out.String()))
		got := make([]entry, len(again))
		for i, e := range again {
			got[i] = entry{key: e.key, value: e.value, line: entries[i].line}
		}
		if len(errs) > 0 || !slices.Equal(got, entries) {
			t.Errorf("written back as %q, read as %#v, %v; want %#v", out.String(), again, errs, entries)
		}

		c, err := Load([]PropertiesFile{{Name: name, Text: bytes.NewReader(data)}}, nil)
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, name+":") && !strings.HasPrefix(line, "and ") {
					t.Errorf("Load error line %q does not start with %s:", line, name)
				}
			}
			return
		}
		for _, k := range registry {
			if _, err := getByKind(c, k.Name); err != nil {
				t.Errorf("%s: %v after a clean Load", k.Name, err)
			}
		}
	})
}

// escapeKey and escapeValue write a key and a value so that the properties
// reader gives them back, as java.util.Properties.store does.
func escapeKey(s string) string { return escape(s, true) }

func escapeValue(s string) string { return escape(s, false) }

func escape(s string, key bool) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\ufeff':
			b.WriteString(`\uFEFF`)
		case strings.ContainsRune("=: #!", r) && (key || i == 0):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
