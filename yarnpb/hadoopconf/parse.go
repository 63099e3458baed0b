package hadoopconf

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

const (
	// maxResourceSize bounds what one site file may make us hold. Real
	// site files are kilobytes; the largest seen in the wild are around a
	// megabyte.
	maxResourceSize = 16 << 20
	// maxDepth bounds element nesting. Site files nest at most five deep
	// (configuration, include, fallback, property, name).
	maxDepth = 100
)

// Parse reads one site file in Hadoop's configuration form:
//
//	<configuration>
//	  <property>
//	    <name>yarn.resourcemanager.hostname</name>
//	    <value>rm.example.com</value>
//	    <final>true</final>              <!-- optional -->
//	    <description>...</description>   <!-- ignored, as are <source>, <tag> -->
//	  </property>
//	  <property name="k" value="v" final="true"/>   <!-- Hadoop 3's short form -->
//	  <xi:include href="more-site.xml">             <!-- resolved by Conf.Add -->
//	    <xi:fallback/>
//	  </xi:include>
//	</configuration>
//
// name is what errors and positions call the resource. Parse reads no other
// file: includes come back as *Include items.
//
// It follows Hadoop's parser where Hadoop is lenient about layout:
// elements are matched by local name whatever their namespace, <property>
// is found at any depth below <configuration>, elements Hadoop does not
// know are skipped, the name is trimmed and the value is not, and an empty
// <value/> is no value at all. Where Hadoop silently drops or mangles
// what the file says, Parse returns a *ParseError naming the line instead:
// a <property> without a name, a repeated <name>, <value> or <final>, a
// <final> other than "true" or "false", markup inside <name>, <value> or
// <final>, an <include> without href, a root other than <configuration>.
func Parse(r io.Reader, name string) (*Resource, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxResourceSize+1))
	if err != nil {
		return nil, fmt.Errorf("hadoopconf: reading %s: %w", name, err)
	}
	if len(data) > maxResourceSize {
		return nil, &ParseError{Pos{File: name}, fmt.Sprintf("larger than %d MiB; not a site file", maxResourceSize>>20)}
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = charsetReader
	p := &parser{d: d, name: name}
	items, err := p.document()
	if err != nil {
		return nil, err
	}
	return &Resource{Name: name, Items: items}, nil
}

type parser struct {
	d     *xml.Decoder
	name  string
	depth int
	pos   Pos // where the token next last returned starts
}

// next returns the next element or character data, skipping comments,
// processing instructions and directives. io.EOF comes back unwrapped.
func (p *parser) next() (xml.Token, error) {
	for {
		// Before Token, the decoder stands where the next token starts.
		line, col := p.d.InputPos()
		tok, err := p.d.Token()
		if err == io.EOF {
			return nil, io.EOF
		}
		if err != nil {
			return nil, p.syntaxError(err)
		}
		p.pos = Pos{File: p.name, Line: line, Col: col}
		switch t := tok.(type) {
		case xml.StartElement:
			p.depth++
			if p.depth > maxDepth {
				return nil, p.errorf("elements nested more than %d deep", maxDepth)
			}
			return t, nil
		case xml.EndElement:
			p.depth--
			return t, nil
		case xml.CharData:
			return t, nil
		}
	}
}

// nextIn is next inside an element, where the end of input is an error.
func (p *parser) nextIn() (xml.Token, error) {
	tok, err := p.next()
	if err == io.EOF {
		return nil, p.errorf("unexpected end of file")
	}
	return tok, err
}

func (p *parser) errorf(format string, args ...any) error {
	return &ParseError{p.pos, fmt.Sprintf(format, args...)}
}

// syntaxError turns the decoder's error into a ParseError with the column
// where the decoder's position is on the reported line.
func (p *parser) syntaxError(err error) error {
	line, col := p.d.InputPos()
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		pos := Pos{File: p.name, Line: se.Line}
		if se.Line == line {
			pos.Col = col
		}
		return &ParseError{pos, se.Msg}
	}
	// Unsupported XML version or encoding: the decoder's own message.
	return &ParseError{Pos{File: p.name, Line: line, Col: col}, err.Error()}
}

func (p *parser) document() ([]Item, error) {
	var items []Item
	root := false
	for {
		tok, err := p.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root {
				return nil, p.errorf("second root element <%s> after </configuration>", t.Name.Local)
			}
			if t.Name.Local != "configuration" {
				return nil, p.errorf("root element is <%s>; a Hadoop site file has <configuration>", t.Name.Local)
			}
			root = true
			if items, err = p.items(nil); err != nil {
				return nil, err
			}
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return nil, p.errorf("text outside <configuration>")
			}
		}
	}
	if !root {
		return nil, &ParseError{Pos{File: p.name}, "no <configuration> element"}
	}
	return items, nil
}

// items reads the content of an element that holds properties (the root,
// a fallback, or an element Hadoop does not know) up to its end tag.
func (p *parser) items(items []Item) ([]Item, error) {
	for {
		tok, err := p.nextIn()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return items, nil
		case xml.StartElement:
			switch t.Name.Local {
			case "property":
				prop, err := p.property(t)
				if err != nil {
					return nil, err
				}
				items = append(items, prop)
			case "include":
				inc, err := p.include(t)
				if err != nil {
					return nil, err
				}
				items = append(items, inc)
			case "fallback":
				return nil, p.errorf("<fallback> outside <include>")
			default:
				// Hadoop finds <property> at any depth and ignores the
				// elements around it; so do we.
				if items, err = p.items(items); err != nil {
					return nil, err
				}
			}
		}
	}
}

func (p *parser) property(start xml.StartElement) (*Property, error) {
	prop := &Property{Pos: p.pos}
	var haveName, haveValue, haveFinal bool
	for _, a := range attrs(start) {
		var err error
		switch a.Name.Local {
		case "name":
			prop.Name, haveName = strings.TrimSpace(a.Value), true
		case "value":
			// An attribute is a value even when empty, as in Hadoop.
			prop.Value, prop.HasValue, haveValue = a.Value, true, true
		case "final":
			prop.Final, err = p.final(a.Value)
			haveFinal = true
		}
		if err != nil {
			return nil, err
		}
		// Other attributes (source, tag) carry nothing a client uses.
	}
	for {
		tok, err := p.nextIn()
		if err != nil {
			return nil, err
		}
		var t xml.StartElement
		switch tok := tok.(type) {
		case xml.EndElement:
			if !haveName || prop.Name == "" {
				return nil, &ParseError{prop.Pos, "<property> has no <name>"}
			}
			return prop, nil
		case xml.StartElement:
			t = tok
		default:
			continue // text between the children is layout
		}
		elem := t.Name.Local
		switch elem {
		case "name", "value", "final":
		case "property", "include":
			return nil, p.errorf("<%s> inside <property>", elem)
		default:
			// <description>, <source>, <tag> and vendors' additions.
			if err := p.skip(); err != nil {
				return nil, err
			}
			continue
		}
		repeated := (elem == "name" && haveName) || (elem == "value" && haveValue) || (elem == "final" && haveFinal)
		if repeated {
			return nil, p.errorf("<property> has a second %s", elem)
		}
		text, err := p.text(elem)
		if err != nil {
			return nil, err
		}
		switch elem {
		case "name":
			prop.Name, haveName = strings.TrimSpace(text), true
		case "value":
			// Hadoop keeps a value only when the element has text.
			prop.Value, prop.HasValue, haveValue = text, text != "", true
		case "final":
			if prop.Final, err = p.final(text); err != nil {
				return nil, err
			}
			haveFinal = true
		}
	}
}

// final reads a final flag. Hadoop takes exactly "true" as final and
// anything else as not final; a flag that is neither "true" nor "false"
// would silently leave a key open that its author meant to close, so it is
// an error here.
func (p *parser) final(s string) (bool, error) {
	switch s {
	case "true":
		return true, nil
	case "false", "":
		return false, nil
	}
	return false, p.errorf("final is %q; Hadoop reads only \"true\" as final", s)
}

func (p *parser) include(start xml.StartElement) (*Include, error) {
	inc := &Include{Pos: p.pos}
	for _, a := range attrs(start) {
		if a.Name.Local == "href" {
			inc.Href = a.Value
		}
	}
	if inc.Href == "" {
		return nil, p.errorf("<include> has no href")
	}
	for {
		tok, err := p.nextIn()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return inc, nil
		case xml.StartElement:
			if t.Name.Local != "fallback" {
				return nil, p.errorf("<%s> inside <include>; only <fallback> belongs there", t.Name.Local)
			}
			if inc.HasFallback {
				return nil, p.errorf("<include> has a second <fallback>")
			}
			inc.HasFallback = true
			if inc.Fallback, err = p.items(nil); err != nil {
				return nil, err
			}
		}
	}
}

// attrs returns an element's attributes without its namespace
// declarations, which the decoder also reports as attributes (xmlns:name="..."
// must not read as a name).
func attrs(start xml.StartElement) []xml.Attr {
	var out []xml.Attr
	for _, a := range start.Attr {
		if a.Name.Space != "xmlns" && (a.Name.Space != "" || a.Name.Local != "xmlns") {
			out = append(out, a)
		}
	}
	return out
}

// text reads the character data of a <name>, <value> or <final> up to its
// end tag.
func (p *parser) text(elem string) (string, error) {
	var b strings.Builder
	for {
		tok, err := p.nextIn()
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.CharData:
			b.Write(t)
		case xml.EndElement:
			return b.String(), nil
		case xml.StartElement:
			return "", p.errorf("<%s> inside <%s>; expected text", t.Name.Local, elem)
		}
	}
}

// skip reads past the end of the element just started.
func (p *parser) skip() error {
	if err := p.d.Skip(); err != nil {
		return p.syntaxError(err)
	}
	p.depth--
	return nil
}

// charsetReader decodes the few encodings other than UTF-8 that site files
// declare. Both are single-byte, so the whole (size-bounded) rest of the
// input is converted at once.
func charsetReader(charset string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "us-ascii", "ascii":
		return input, nil // ASCII is UTF-8
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1":
		raw, err := io.ReadAll(input)
		if err != nil {
			return nil, err
		}
		out := make([]byte, 0, len(raw))
		for _, c := range raw {
			out = utf8.AppendRune(out, rune(c))
		}
		return bytes.NewReader(out), nil
	}
	return nil, fmt.Errorf("unsupported encoding %q; site files are UTF-8", charset)
}
