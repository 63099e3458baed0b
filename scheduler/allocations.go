package scheduler

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spindle-yarn/spindle/internal/suggest"
)

// Bounds on an allocation file. A real one holds a handful of pools; the
// limits only keep a wrong path (a log, a data set) from costing memory and
// time.
const (
	maxAllocationsBytes = 1 << 20
	maxAllocationPools  = 10000
)

// Element names of Spark's format, case-sensitive as Spark reads them.
const (
	elemAllocations    = "allocations"
	elemPool           = "pool"
	elemSchedulingMode = "schedulingMode"
	elemWeight         = "weight"
	elemMinShare       = "minShare"
)

var poolElements = []string{elemSchedulingMode, elemWeight, elemMinShare}

// xmlSpace is XML's whitespace. Spark trims values with Java's String.trim,
// which in a well-formed document removes exactly these characters.
const xmlSpace = " \t\r\n"

// ParseAllocations reads a fair scheduler allocation file in Spark's
// fairScheduler.xml format (spark.scheduler.allocation.file):
//
//	<?xml version="1.0"?>
//	<allocations>
//	  <pool name="production">
//	    <schedulingMode>FAIR</schedulingMode>
//	    <weight>1</weight>
//	    <minShare>2</minShare>
//	  </pool>
//	</allocations>
//
// It returns the pools in file order. A setting left out takes
// DefaultPoolConfig's value; values are trimmed as Spark trims them, and the
// mode is read in any case.
//
// Spark warns and falls back to a default on a bad value, and silently
// ignores what it does not know. Here every such thing is an error naming
// the file (name), the line and column (the line alone when the XML itself
// is malformed), the pool and the value: a malformed document; a root
// other than <allocations>; an unknown, misspelt or repeated element; text
// or attributes where none belong; a pool without a name, with a blank or
// space-padded one, or with the name of an earlier pool; a weight below 1
// or a minShare below 0; a number that is not a 32-bit integer (Spark's
// Int). Pools must be children of <allocations>
// (Spark collects <pool> elements at any depth). Input over 1 MiB or with
// more than 10,000 pools is refused.
func ParseAllocations(r io.Reader, name string) ([]PoolConfig, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxAllocationsBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxAllocationsBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes: not an allocation file", name, maxAllocationsBytes)
	}
	p := &allocParser{dec: xml.NewDecoder(bytes.NewReader(data)), file: name}
	return p.document()
}

// xmlPos is a line and a 1-based byte column.
type xmlPos struct{ line, col int }

// allocParser walks the decoder's tokens by hand, rather than through
// xml.Unmarshal, so that it sees (and can refuse) everything in the file
// and knows where each token starts.
type allocParser struct {
	dec  *xml.Decoder
	file string
	pos  xmlPos // where the token last returned by next starts
}

// next returns the next token with p.pos at its start: every token,
// whitespace included, begins where the previous one ended. At the end of
// the document it returns io.EOF.
func (p *allocParser) next() (xml.Token, error) {
	p.pos.line, p.pos.col = p.dec.InputPos()
	tok, err := p.dec.Token()
	if err == nil || err == io.EOF {
		return tok, err
	}
	var syn *xml.SyntaxError
	if errors.As(err, &syn) {
		return nil, fmt.Errorf("%s:%d: malformed XML: %s", p.file, syn.Line, syn.Msg)
	}
	// Not a syntax error: an encoding the decoder cannot read, say.
	return nil, p.errorf(p.pos, "%v", err)
}

func (p *allocParser) errorf(at xmlPos, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: %s", p.file, at.line, at.col, fmt.Sprintf(format, args...))
}

// document reads the prolog, the <allocations> root and what follows it.
func (p *allocParser) document() ([]PoolConfig, error) {
	for {
		tok, err := p.next()
		if err == io.EOF {
			return nil, p.errorf(p.pos, "no <%s> element", elemAllocations)
		}
		if err != nil {
			return nil, err
		}
		if pi, ok := tok.(xml.ProcInst); ok && pi.Target == "xml" {
			continue // the <?xml ...?> declaration; the decoder checks it
		}
		start, ok := tok.(xml.StartElement)
		if !ok {
			if err := p.misc(tok, "before <"+elemAllocations+">"); err != nil {
				return nil, err
			}
			continue
		}
		if xmlName(start.Name) != elemAllocations {
			return nil, p.errorf(p.pos, "root element <%s>, want <%s>", clipText(xmlName(start.Name)), elemAllocations)
		}
		if err := p.noAttrs(start); err != nil {
			return nil, err
		}
		pools, err := p.allocations()
		if err != nil {
			return nil, err
		}
		if err := p.epilog(); err != nil {
			return nil, err
		}
		return pools, nil
	}
}

// allocations reads the pools up to </allocations>.
func (p *allocParser) allocations() ([]PoolConfig, error) {
	pools := []PoolConfig{}
	firstAt := make(map[string]xmlPos)
	for {
		tok, err := p.next()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return pools, nil
		case xml.StartElement:
			at := p.pos
			if xmlName(t.Name) != elemPool {
				return nil, p.errorf(at, "unknown element <%s> in <%s>%s",
					clipText(xmlName(t.Name)), elemAllocations, didYouMean(xmlName(t.Name), elemPool))
			}
			if len(pools) == maxAllocationPools {
				return nil, p.errorf(at, "more than %d pools", maxAllocationPools)
			}
			cfg, err := p.pool(t)
			if err != nil {
				return nil, err
			}
			// Spark would keep both, and look the name up to either.
			if first, dup := firstAt[cfg.Name]; dup {
				return nil, p.errorf(at, "pool %q: defined again (first at line %d)", clipText(cfg.Name), first.line)
			}
			firstAt[cfg.Name] = at
			pools = append(pools, cfg)
		default:
			if err := p.misc(tok, "in <"+elemAllocations+">"); err != nil {
				return nil, err
			}
		}
	}
}

// pool reads one <pool> element, start being its start tag.
func (p *allocParser) pool(start xml.StartElement) (PoolConfig, error) {
	name, err := p.poolName(start)
	if err != nil {
		return PoolConfig{}, err
	}
	cfg := DefaultPoolConfig(name)
	seen := make(map[string]bool)
	for {
		tok, err := p.next()
		if err != nil {
			return PoolConfig{}, err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return cfg, nil
		case xml.StartElement:
			if err := p.setting(&cfg, t, seen); err != nil {
				return PoolConfig{}, err
			}
		default:
			if err := p.misc(tok, fmt.Sprintf("in pool %q", clipText(name))); err != nil {
				return PoolConfig{}, err
			}
		}
	}
}

// poolName returns the name attribute of a <pool> start tag, the only
// attribute it may have. Spark takes the name untrimmed, so one with
// leading or trailing space would be a pool no job could be expected to
// name; it is refused rather than trimmed.
func (p *allocParser) poolName(start xml.StartElement) (string, error) {
	var name *string
	for _, a := range start.Attr {
		switch {
		case a.Name.Space != "" || a.Name.Local != "name":
			return "", p.errorf(p.pos, "<%s> attribute %q: only name is allowed", elemPool, clipText(xmlName(a.Name)))
		case name != nil:
			return "", p.errorf(p.pos, "<%s> has two name attributes", elemPool)
		}
		name = &a.Value
	}
	switch {
	case name == nil:
		return "", p.errorf(p.pos, "<%s> without a name attribute", elemPool)
	case strings.Trim(*name, xmlSpace) == "":
		return "", p.errorf(p.pos, "<%s> with an empty name", elemPool)
	case strings.Trim(*name, xmlSpace) != *name:
		return "", p.errorf(p.pos, "pool %q: name has leading or trailing space", clipText(*name))
	}
	return *name, nil
}

// setting reads one element inside a <pool> into cfg; seen holds the
// elements the pool has given already.
func (p *allocParser) setting(cfg *PoolConfig, start xml.StartElement, seen map[string]bool) error {
	at := p.pos
	elem := xmlName(start.Name)
	if !slices.Contains(poolElements, elem) {
		return p.errorf(at, "pool %q: unknown element <%s>%s",
			clipText(cfg.Name), clipText(elem), didYouMean(elem, poolElements...))
	}
	// Spark would run the texts of both together.
	if seen[elem] {
		return p.errorf(at, "pool %q: <%s> given twice", clipText(cfg.Name), elem)
	}
	seen[elem] = true
	v, err := p.value(start, fmt.Sprintf("in <%s> of pool %q", elem, clipText(cfg.Name)))
	if err != nil {
		return err
	}
	switch elem {
	case elemSchedulingMode:
		mode, err := ParseSchedulingMode(v)
		if err != nil {
			return p.errorf(at, "pool %q: %s %q: want FIFO or FAIR", clipText(cfg.Name), elem, clipText(v))
		}
		cfg.Mode = mode
	case elemWeight:
		cfg.Weight, err = p.integer(at, cfg.Name, elem, v, 1)
	case elemMinShare:
		cfg.MinShare, err = p.integer(at, cfg.Name, elem, v, 0)
	}
	return err
}

// integer parses v, the value of elem in pool poolName, as a 32-bit
// integer (Spark's Int) of at least least.
func (p *allocParser) integer(at xmlPos, poolName, elem, v string, least int) (int, error) {
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, p.errorf(at, "pool %q: %s %q: not an integer", clipText(poolName), elem, clipText(v))
	}
	// Out of range, ParseInt gives the nearest bound: a negative one is
	// below least, a positive one too large.
	if n < int64(least) {
		return 0, p.errorf(at, "pool %q: %s %q: must be at least %d", clipText(poolName), elem, clipText(v), least)
	}
	if err != nil {
		return 0, p.errorf(at, "pool %q: %s %q: must be at most %d", clipText(poolName), elem, clipText(v), math.MaxInt32)
	}
	return int(n), nil
}

// value returns the trimmed text of a setting element such as <weight>,
// which holds text and comments only.
func (p *allocParser) value(start xml.StartElement, where string) (string, error) {
	if err := p.noAttrs(start); err != nil {
		return "", err
	}
	var text strings.Builder
	for {
		tok, err := p.next()
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.CharData:
			text.Write(t)
		case xml.Comment:
			// Skipped inside the text, as Spark's XML library does.
		case xml.EndElement:
			return strings.Trim(text.String(), xmlSpace), nil
		default:
			return "", p.misc(tok, where)
		}
	}
}

// noAttrs refuses attributes on an element that takes none: Spark would
// ignore them.
func (p *allocParser) noAttrs(start xml.StartElement) error {
	if len(start.Attr) == 0 {
		return nil
	}
	return p.errorf(p.pos, "<%s> takes no attributes, has %q", xmlName(start.Name), clipText(xmlName(start.Attr[0].Name)))
}

// epilog checks that only whitespace and comments follow </allocations>.
func (p *allocParser) epilog() error {
	for {
		tok, err := p.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := p.misc(tok, "after </"+elemAllocations+">"); err != nil {
			return err
		}
	}
}

// misc takes a token standing between elements, where says where: it
// accepts whitespace and comments and refuses anything else, so that
// nothing in the file is silently skipped.
func (p *allocParser) misc(tok xml.Token, where string) error {
	switch t := tok.(type) {
	case xml.Comment:
		return nil
	case xml.CharData:
		text := strings.Trim(string(t), xmlSpace)
		if text == "" {
			return nil
		}
		return p.errorf(p.pos, "unexpected text %q %s", clipText(text), where)
	case xml.StartElement:
		return p.errorf(p.pos, "unexpected element <%s> %s", clipText(xmlName(t.Name)), where)
	case xml.ProcInst:
		return p.errorf(p.pos, "unexpected <?%s?> %s", clipText(t.Target), where)
	case xml.Directive:
		// A DOCTYPE could declare entities the decoder does not expand;
		// the format needs none.
		return p.errorf(p.pos, "unexpected <!%s> %s", clipText(string(t)), where)
	}
	// Only xml.EndElement is left, and each caller stops at that itself.
	return nil
}

// xmlName spells an element or attribute name as written, with its prefix
// (or namespace) if any, so that a namespaced <x:pool> is not a <pool>.
func xmlName(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// clipText shortens text from the file for an error message.
func clipText(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	return strings.ToValidUTF8(s[:max], "") + "..."
}

// didYouMean suggests the known element nearest to got, for one that is
// miscased or misspelt (Spark ignores both silently), or returns "".
func didYouMean(got string, known ...string) string {
	best, bestDist := "", 3 // suggest within two edits only
	for _, k := range known {
		if d := suggest.Distance(strings.ToLower(got), strings.ToLower(k), bestDist); d < bestDist {
			best, bestDist = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean <%s>?)", best)
}
