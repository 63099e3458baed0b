package hadoopconf

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// WriteXML writes r as a site file that Parse reads back to the same items
// and that Hadoop 3 reads to the same configuration. A property whose value
// is the empty string is written in the short form, <property name="k"
// value=""/>, because Hadoop reads an empty <value/> as no value at all.
func (r *Resource) WriteXML(w io.Writer) error {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(`<configuration xmlns:xi="http://www.w3.org/2001/XInclude">` + "\n")
	if err := writeItems(&b, r.Items, 1); err != nil {
		return err
	}
	b.WriteString("</configuration>\n")
	_, err := w.Write(b.Bytes())
	return err
}

func writeItems(b *bytes.Buffer, items []Item, depth int) error {
	indent := strings.Repeat("  ", depth)
	for _, it := range items {
		switch it := it.(type) {
		case *Property:
			if err := writeProperty(b, it, indent); err != nil {
				return err
			}
		case *Include:
			if !xmlSafe(it.Href) || it.Href == "" {
				return fmt.Errorf("hadoopconf: include href %q cannot be written as XML", it.Href)
			}
			b.WriteString(indent + `<xi:include href="` + escape(it.Href) + `">` + "\n")
			if it.HasFallback {
				b.WriteString(indent + "  <xi:fallback>\n")
				if err := writeItems(b, it.Fallback, depth+2); err != nil {
					return err
				}
				b.WriteString(indent + "  </xi:fallback>\n")
			}
			b.WriteString(indent + "</xi:include>\n")
		default:
			return fmt.Errorf("hadoopconf: cannot write item %T", it)
		}
	}
	return nil
}

func writeProperty(b *bytes.Buffer, p *Property, indent string) error {
	// Parse trims names, so a name with surrounding white space would not
	// read back as itself.
	if p.Name == "" || p.Name != strings.TrimSpace(p.Name) || !xmlSafe(p.Name) {
		return fmt.Errorf("hadoopconf: property name %q cannot be written as XML", p.Name)
	}
	if !xmlSafe(p.Value) {
		return fmt.Errorf("hadoopconf: value of %s holds characters XML cannot carry", p.Name)
	}
	if p.HasValue && p.Value == "" {
		b.WriteString(indent + `<property name="` + escape(p.Name) + `" value=""`)
		if p.Final {
			b.WriteString(` final="true"`)
		}
		b.WriteString("/>\n")
		return nil
	}
	b.WriteString(indent + "<property>\n")
	b.WriteString(indent + "  <name>" + escape(p.Name) + "</name>\n")
	if p.HasValue {
		b.WriteString(indent + "  <value>" + escape(p.Value) + "</value>\n")
	}
	if p.Final {
		b.WriteString(indent + "  <final>true</final>\n")
	}
	b.WriteString(indent + "</property>\n")
	return nil
}

// escape escapes s for element text and attribute values alike, tabs and
// line ends included, so they survive a round trip.
func escape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder does not fail
	return b.String()
}

// xmlSafe reports whether every character of s is one XML 1.0 can carry;
// others would be replaced on writing and the value silently changed.
func xmlSafe(s string) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return false
			}
		}
		ok := r == '\t' || r == '\n' || r == '\r' ||
			(r >= 0x20 && r <= 0xD7FF) ||
			(r >= 0xE000 && r <= 0xFFFD) ||
			(r >= 0x10000 && r <= 0x10FFFF)
		if !ok {
			return false
		}
	}
	return true
}
