package jobspec

import "go.yaml.in/yaml/v3"

// maxNodeLabel is YARN's bound on a node label's length.
const maxNodeLabel = 255

// nodeLabel reads a stage's YARN node label: YARN's own pattern,
// [0-9a-zA-Z][0-9a-zA-Z_-]*, so that a label the RM would refuse is
// refused here, at the line that gives it.
func (d *decoder) nodeLabel(n *yaml.Node, path string) string {
	s, ok := d.text(n, path)
	if !ok {
		return ""
	}
	if s == "" || len(s) > maxNodeLabel {
		d.errorf(n.Line, path, "%s: a YARN node label has 1 to %d characters", describe(n), maxNodeLabel)
		return ""
	}
	for i, c := range s {
		alnum := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !alnum && (i == 0 || c != '-' && c != '_') {
			d.errorf(n.Line, path, "%s: not a YARN node label (a letter or digit, then letters, digits, '-' or '_')", describe(n))
			return ""
		}
	}
	return s
}
