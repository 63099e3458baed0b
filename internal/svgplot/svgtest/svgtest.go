// Package svgtest reads an SVG back for tests: its elements as a tree,
// their attributes, and the elements of a class, so that a test finds a
// chart's series and labels by what svgplot marks them with.
package svgtest

import (
	"encoding/xml"
	"strings"
)

// Node is any element of a parsed SVG.
type Node struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Text     string     `xml:",chardata"`
	Children []Node     `xml:",any"`
}

// Parse reads an SVG document.
func Parse(data []byte) (Node, error) {
	var root Node
	err := xml.Unmarshal(data, &root)
	return root, err
}

// Attr is the value of n's attribute name, "" when it has none.
func (n Node) Attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// Find lists the elements under n (n too) whose class holds class, in
// document order.
func (n Node) Find(class string) []Node {
	var out []Node
	for _, c := range strings.Fields(n.Attr("class")) {
		if c == class {
			out = append(out, n)
			break
		}
	}
	for _, c := range n.Children {
		out = append(out, c.Find(class)...)
	}
	return out
}
