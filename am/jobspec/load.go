package jobspec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/spindle-yarn/spindle/scheduler"
)

// Load reads and checks the job spec in the file at path (YAML, or JSON,
// which is YAML).
func Load(path string, d Defaults) (*Job, error) {
	data, err := Read(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path, d)
}

// Read reads the job spec in the file at path, for Parse, once: a pipe or
// a process substitution (/dev/stdin, /dev/fd/63) can be read only once,
// so whoever ships the spec on ships what Read returned.
func Read(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("job spec: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSpecBytes+1)) // +1: Parse says it is too large
	if err != nil {
		return nil, fmt.Errorf("job spec: %w", err)
	}
	return data, nil
}

// Parse reads and checks a job spec; source names it in errors (its
// file's path, usually). The error, if any, lists every problem found (up
// to a bound), each on its own line as source:line: field: what is wrong.
func Parse(data []byte, source string, d Defaults) (*Job, error) {
	def, err := d.resolve()
	if err != nil {
		return nil, err
	}
	if len(data) > maxSpecBytes {
		return nil, fmt.Errorf("%s: larger than %d MiB: a job spec describes work, it does not carry data", source, maxSpecBytes>>20)
	}
	root, err := document(data, source)
	if err != nil {
		return nil, err
	}
	dec := newDecoder(source)
	job := dec.job(root, def)
	if err := dec.err(); err != nil {
		return nil, err
	}
	return job, nil
}

// resolve fills in Spindle's own defaults and checks the rest, which come
// from configuration rather than the spec.
func (d Defaults) resolve() (Defaults, error) {
	d.CPUs = max(d.CPUs, 1)
	if d.Pool == "" {
		d.Pool = defaultPool
	}
	if err := checkGPUs("default task GPU amount", d.GPUs); err != nil {
		return d, err
	}
	if d.MaxAttempts < 0 || d.MaxAttempts > scheduler.MaxAttemptsLimit {
		return d, fmt.Errorf("default task attempts %d: want 0 (the scheduler's default) to %d", d.MaxAttempts, scheduler.MaxAttemptsLimit)
	}
	return d, nil
}

// document parses data as exactly one YAML document, and returns its
// root, which is not null.
func document(data []byte, source string) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF):
		return nil, fmt.Errorf("%s: empty: a job spec needs a name and stages", source)
	case err != nil:
		return nil, syntaxError(source, err, data)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		return nil, fmt.Errorf("%s:%d: a second YAML document: a job spec is one document", source, next.Line)
	case !errors.Is(err, io.EOF):
		return nil, syntaxError(source, err, data)
	}
	root := doc.Content[0] // a document node holds one value
	if isNull(root) {
		return nil, fmt.Errorf("%s:%d: empty: a job spec needs a name and stages", source, root.Line)
	}
	return root, nil
}

// syntaxError rewords the YAML parser's "yaml: line N: problem" as
// "source:N: not valid YAML: problem".
//
// yaml.v3 numbers lines from 1 for its scanner's errors but from 0 for its
// parser's (it adds 1 to the former only); the parser's problems, a fixed
// set, are moved on a line here. A problem at the end of the input is put
// on the input's last line.
func syntaxError(source string, err error, data []byte) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line, problem := 0, msg
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, p, ok := strings.Cut(rest, ": "); ok {
			if l, err := strconv.Atoi(n); err == nil {
				line, problem = l, p
			}
		}
	}
	if parserProblems[problem] {
		line++
	}
	if line == 0 {
		return fmt.Errorf("%s: not valid YAML: %s", source, problem)
	}
	lines := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		lines++
	}
	return fmt.Errorf("%s:%d: not valid YAML: %s", source, min(line, max(lines, 1)), problem)
}

// parserProblems are the problems yaml.v3's parser (parserc.go) reports,
// with 0-based lines.
var parserProblems = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"found undefined tag handle":             true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found duplicate %TAG directive":         true,
}
