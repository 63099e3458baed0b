package config

// A Pair is one key and its value, verbatim, and the line of the file
// that holds it; From, when the file carries it, is where the value came
// from in the process that wrote the file (its Origin there).
type Pair struct {
	Key, Value string
	Line       int
	From       string
}

// LoadVerbatim is Load for keys and values that need no unescaping or
// trimming: a settings file Spindle wrote for a process it starts, whose
// values must arrive byte for byte. name is the file's, for messages.
func LoadVerbatim(name string, pairs []Pair) (*Config, error) {
	l := loader{set: map[string]assignment{}, ignored: map[string]bool{}}
	source := make([]assignment, len(pairs))
	for i, p := range pairs {
		source[i] = assignment{written: p.Key, value: p.Value, source: Source{File: name, Line: p.Line}}
	}
	l.apply(source)
	if len(l.errs) > 0 {
		return nil, joinErrors(l.errs)
	}
	c, err := l.config()
	if err != nil {
		return nil, err
	}
	for _, p := range pairs {
		if p.From != "" {
			if c.from == nil {
				c.from = map[string]string{}
			}
			c.from[p.Key] = p.From
		}
	}
	return c, nil
}
