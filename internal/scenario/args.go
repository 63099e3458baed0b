package scenario

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Args are a line's command, bare words and key=value pairs, read
// strictly: each getter records the first value that does not read, and
// Err reports it, or else the first key or word no getter took.
type Args struct {
	Cmd   string
	words []string
	taken []bool
	kv    map[string]string
	used  map[string]bool
	order []string // keys in the order given
	err   error
}

// ParseArgs splits "cmd a=1 word b=x,y". Each key in rest ("reason",
// say) takes everything after "key=" to the end of the line, spaces and
// all.
func ParseArgs(line string, rest ...string) *Args {
	a := &Args{kv: map[string]string{}, used: map[string]bool{}}
	for _, k := range rest {
		if i := strings.Index(line, " "+k+"="); i >= 0 {
			a.set(k, line[i+len(k)+2:])
			line = line[:i]
		}
	}
	f := strings.Fields(line)
	if len(f) == 0 {
		a.fail("an empty line")
		return a
	}
	a.Cmd = f[0]
	for _, w := range f[1:] {
		if k, v, ok := strings.Cut(w, "="); ok {
			a.set(k, v)
		} else {
			a.words = append(a.words, w)
			a.taken = append(a.taken, false)
		}
	}
	return a
}

func (a *Args) set(k, v string) {
	if _, dup := a.kv[k]; dup {
		a.fail("%s= given twice", k)
	}
	a.kv[k] = v
	a.order = append(a.order, k)
}

// Fail records an error of the command's own, unless one came first.
func (a *Args) Fail(format string, args ...any) { a.fail(format, args...) }

func (a *Args) fail(format string, args ...any) {
	if a.err == nil {
		a.err = fmt.Errorf(format, args...)
	}
}

// Err is the first value that did not read, else the first key or bare
// word that nothing took: a misspelled key is an error, not a default.
func (a *Args) Err() error {
	if a.err != nil {
		return a.err
	}
	for _, k := range a.order {
		if !a.used[k] {
			return fmt.Errorf("%s %s=%s: unknown key", a.Cmd, k, a.kv[k])
		}
	}
	for i, w := range a.words {
		if !a.taken[i] {
			return fmt.Errorf("%s: unknown word %q", a.Cmd, w)
		}
	}
	return nil
}

// Has says whether key was given, and takes it.
func (a *Args) Has(key string) bool {
	_, ok := a.kv[key]
	a.used[key] = true
	return ok
}

// String is key's value, or def.
func (a *Args) String(key, def string) string {
	v, ok := a.kv[key]
	a.used[key] = true
	if !ok {
		return def
	}
	return v
}

// List is key's comma-separated values; none when it is absent or empty.
func (a *Args) List(key string) []string {
	if v := a.String(key, ""); v != "" {
		return strings.Split(v, ",")
	}
	return nil
}

// Int is key's value as a decimal integer, or def.
func (a *Args) Int(key string, def int) int {
	return int(a.Int64(key, int64(def)))
}

// Int64 is key's value as a decimal integer, or def.
func (a *Args) Int64(key string, def int64) int64 {
	v, ok := a.kv[key]
	a.used[key] = true
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		a.fail("%s=%q: not a whole number", key, v)
	}
	return n
}

// Float is key's value as a decimal number, or def.
func (a *Args) Float(key string, def float64) float64 {
	v, ok := a.kv[key]
	a.used[key] = true
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		a.fail("%s=%q: not a number", key, v)
	}
	return f
}

// Duration is key's value as a Go duration (1s, 200ms), or def.
func (a *Args) Duration(key string, def time.Duration) time.Duration {
	v, ok := a.kv[key]
	a.used[key] = true
	if !ok {
		return def
	}
	return a.ParseDuration(key, v)
}

// ParseDuration reads v, a part of key's value, as a Go duration.
func (a *Args) ParseDuration(key, v string) time.Duration {
	d, err := time.ParseDuration(v)
	if err != nil {
		a.fail("%s=%q: not a duration", key, v)
	}
	return d
}

// Flag says whether the bare word w was given, and takes it.
func (a *Args) Flag(w string) bool {
	found := false
	for i, x := range a.words {
		if x == w {
			a.taken[i], found = true, true
		}
	}
	return found
}

// Words takes the bare words no Flag took, which must be n.
func (a *Args) Words(n int) []string {
	var ws []string
	for i, w := range a.words {
		if !a.taken[i] {
			a.taken[i] = true
			ws = append(ws, w)
		}
	}
	if len(ws) != n {
		a.fail("%s: want %d bare words, have %d (%s)", a.Cmd, n, len(ws), strings.Join(ws, " "))
		return make([]string, n)
	}
	return ws
}
