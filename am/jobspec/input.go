package jobspec

import (
	"fmt"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/spindle-yarn/spindle/internal/splits"
	"github.com/spindle-yarn/spindle/internal/units"
)

// Input is what a stage reads (docs/data.md): files named by paths and
// globs, cut into one split a task. A stage with one has its task count
// from the listing, not the spec.
type Input struct {
	// Paths are URIs (hdfs://nn/data/*.parquet, file:///data/x) or
	// absolute paths on the default filesystem, globs allowed; none for a
	// stage without an input.
	Paths []string
	// Split is how the listing is cut: splits.PerFile when the spec
	// names none, so that one mode has one value.
	Split splits.Mode
}

// inputKeys are the keys an input mapping may have.
var inputKeys = []string{"paths", "split"}

// input reads a stage's input: {paths: [...], split: ...}, split file
// when not given.
func (d *decoder) input(n *yaml.Node, path string) Input {
	f := d.fields(n, path, inputKeys, nil)
	if f == nil {
		return Input{}
	}
	in := Input{Split: splits.Mode{Kind: splits.PerFile}} // one mode, one spelling: file when not given
	if e, ok := f["paths"]; ok {
		in.Paths = d.inputPaths(e.value, join(path, "paths"))
	} else {
		d.errorf(n.Line, join(path, "paths"), "missing: name the files to read")
	}
	if e, ok := f["split"]; ok {
		if m := d.splitMode(e.value, join(path, "split")); m.Kind != "" {
			in.Split = m
		}
	}
	return in
}

// inputPaths reads the paths: a list, or one path as a string.
func (d *decoder) inputPaths(n *yaml.Node, path string) []string {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		if p, ok := d.inputPath(n, path); ok {
			return []string{p}
		}
		return nil
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		d.errorf(n.Line, path, "%s: want a path or a list of at least one", describe(n))
		return nil
	}
	var paths []string
	for i, e := range n.Content {
		e, ok := d.value(e, index(path, i))
		if !ok {
			continue
		}
		if p, ok := d.inputPath(e, index(path, i)); ok {
			paths = append(paths, p)
		}
	}
	return paths
}

// inputPath reads one path: a URI with a scheme (hdfs://, file://, ...)
// or an absolute path; no control characters (a tab or a line break
// could not be written in a task's split file).
func (d *decoder) inputPath(n *yaml.Node, path string) (string, bool) {
	s, ok := d.text(n, path)
	if !ok {
		return "", false
	}
	switch {
	case s == "":
		d.errorf(n.Line, path, "an empty path")
	case len(s) > maxPathBytes:
		d.errorf(n.Line, path, "longer than %d bytes", maxPathBytes)
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		d.errorf(n.Line, path, "%s: contains a control character", describe(n))
	case !strings.HasPrefix(s, "/") && !strings.Contains(s, "://"):
		d.errorf(n.Line, path, "%s: a relative path; give an absolute one (/data/x) or a URI (hdfs://nn/data/x, file:///data/x)", describe(n))
	default:
		return s, true
	}
	return "", false
}

// maxPathBytes bounds a path: HDFS's own limit is 8,000 characters
// (dfs.namenode.fs-limits.max-path-length's default).
const maxPathBytes = 8000

// splitMode reads how an input is cut: file, block, {files: N} or
// {bytes: SIZE}, SIZE a byte count or a size such as 256m.
func (d *decoder) splitMode(n *yaml.Node, path string) splits.Mode {
	const want = "want file, block, {files: N} or {bytes: SIZE}"
	if n.Kind == yaml.ScalarNode {
		s, ok := d.text(n, path)
		switch {
		case !ok:
		case s == string(splits.PerFile) || s == string(splits.PerBlock):
			return splits.Mode{Kind: splits.Kind(s)}
		default:
			d.errorf(n.Line, path, "%s: %s", describe(n), want)
		}
		return splits.Mode{}
	}
	entries, ok := d.mapping(n, path)
	if !ok {
		return splits.Mode{}
	}
	if len(entries) != 1 || (entries[0].key != string(splits.PerFiles) && entries[0].key != string(splits.PerBytes)) {
		d.errorf(n.Line, path, "%s", want)
		return splits.Mode{}
	}
	e := entries[0]
	p := join(path, e.key)
	v, ok := d.value(e.value, p)
	if !ok {
		return splits.Mode{}
	}
	if e.key == string(splits.PerFiles) {
		files, ok := d.int(v, p, 1)
		if !ok {
			return splits.Mode{}
		}
		return splits.Mode{Kind: splits.PerFiles, N: int64(files)}
	}
	return splits.Mode{Kind: splits.PerBytes, N: d.splitBytes(v, p)}
}

// splitBytes reads a split's size: a byte count or a size with a unit.
func (d *decoder) splitBytes(n *yaml.Node, path string) int64 {
	text, ok := d.text(n, path)
	if !ok {
		return 0
	}
	size, err := units.ParseBytes(text)
	if err == nil && size == 0 {
		err = fmt.Errorf("must be above 0")
	}
	if err != nil {
		d.errorf(n.Line, path, "%s: %v", describe(n), err)
		return 0
	}
	return size
}

// inputSpec is in as a spec writes it; nil for none.
func inputSpec(in Input) any {
	if len(in.Paths) == 0 {
		return nil
	}
	var split any = string(in.Split.Kind)
	switch in.Split.Kind {
	case "", splits.PerFile:
		split = nil // the default
	case splits.PerFiles, splits.PerBytes:
		split = map[string]int64{string(in.Split.Kind): in.Split.N}
	}
	return struct {
		Paths []string `json:"paths"`
		Split any      `json:"split,omitempty"`
	}{in.Paths, split}
}
