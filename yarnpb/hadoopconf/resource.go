package hadoopconf

import (
	"fmt"
	"strconv"
)

// Resource is one parsed site file: its properties and xi:includes in
// document order, before any merging. Order matters because a later
// definition overrides an earlier one unless that one was final.
type Resource struct {
	// Name is where the resource came from (usually its path); positions
	// and errors use it, and relative xi:include hrefs resolve against its
	// directory.
	Name  string
	Items []Item
}

// Item is one entry of a site file: a *Property or an *Include.
type Item interface {
	// Position is where the item starts.
	Position() Pos
}

// Property is one <property> element.
type Property struct {
	Name  string
	Value string
	// HasValue is false when the property carries no value (no <value>, or
	// an empty <value/>): Hadoop's parser then records no value, so the key
	// stays unset, and an earlier resource's value stands.
	HasValue bool
	// Final forbids later resources to change the key.
	Final bool
	Pos   Pos
}

// Include is an <xi:include href="..."> element. Its resource's items take
// its place in the including file, as Hadoop loads them inline.
type Include struct {
	Href string
	// HasFallback reports an <xi:fallback> child: then a missing target is
	// no error, and the Fallback items are loaded instead.
	HasFallback bool
	Fallback    []Item
	Pos         Pos
}

// Position implements Item.
func (p *Property) Position() Pos { return p.Pos }

// Position implements Item.
func (in *Include) Position() Pos { return in.Pos }

// Pos is a place in a resource: a file and a 1-based line and column
// (bytes). Line 0 means the whole resource, as for built-in defaults and
// values set by code.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return p.File + ":" + strconv.Itoa(p.Line)
	default:
		return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
	}
}

// ParseError is a site file that is not well-formed XML or not in Hadoop's
// configuration form. Pos names the file and the line (and column where
// known) of the problem.
type ParseError struct {
	Pos Pos
	Msg string
}

func (e *ParseError) Error() string {
	return "hadoopconf: " + e.Pos.String() + ": " + e.Msg
}
