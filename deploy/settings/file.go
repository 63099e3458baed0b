package settings

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// fileHeader opens a settings file: the format's name and version.
const fileHeader = "# spindle settings 1: KEY=\"VALUE\", the value a Go quoted string"

// fromMark follows a value on its line when the writer says where the
// value came from (config.Config.Origin), quoted as the value is: the
// reader's environment page names the user's source, not this file.
const fromMark = "\t# from "

// WriteFile writes conf's settings to path (0600) for a process Spindle
// starts (an AM, a local session's driver), which reads them back with
// ReadFile. Each value is quoted, so that it arrives byte for byte:
// backslashes, newlines, leading and trailing blanks and bytes that are
// not UTF-8 included, which a properties file would change. over
// replaces some keys' values. Each line carries where its value came
// from (the reader's Config.Origin).
//
// Only the keys some source set (and those over replaces) are written:
// the same binary gives the rest the same defaults there, and a key
// left at its default stays unset for the reader, as rules that act on
// what the user set (config's checks) need.
func WriteFile(path string, conf *config.Config, over map[string]string) error {
	var b bytes.Buffer
	fmt.Fprintln(&b, fileHeader)
	for _, st := range conf.Settings() {
		v, replaced := over[st.Key]
		if !replaced && !conf.IsSet(st.Key) {
			continue
		}
		if replaced {
			st.Value = v
		}
		fmt.Fprintf(&b, "%s=%s%s%s\n", st.Key, strconv.Quote(st.Value), fromMark, strconv.Quote(conf.Origin(st.Key)))
	}
	return os.WriteFile(path, b.Bytes(), 0o600)
}

// ReadFile reads a settings file WriteFile wrote.
func ReadFile(path string) (*config.Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pairs, err := readPairs(path, f)
	if err != nil {
		return nil, err
	}
	return config.LoadVerbatim(path, pairs)
}

// readPair reads a line KEY="VALUE", which may say where the value came
// from: KEY="VALUE"<tab># from "ORIGIN".
func readPair(text string) (config.Pair, bool) {
	key, rest, ok := strings.Cut(text, "=")
	quoted, err := strconv.QuotedPrefix(rest)
	if !ok || err != nil || key == "" {
		return config.Pair{}, false
	}
	p := config.Pair{Key: key}
	p.Value, _ = strconv.Unquote(quoted) // a quoted prefix always unquotes
	if rest = rest[len(quoted):]; rest == "" {
		return p, true
	}
	from, ok := strings.CutPrefix(rest, fromMark)
	if p.From, err = strconv.Unquote(from); !ok || err != nil || p.From == "" {
		return config.Pair{}, false
	}
	return p, true
}

// readPairs reads a settings file's lines, refusing any WriteFile would
// not have written, with the file and line.
func readPairs(name string, r io.Reader) ([]config.Pair, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	var pairs []config.Pair
	headed := false
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if line == 1 {
			if text != fileHeader {
				return nil, fmt.Errorf("%s:1: not a settings file Spindle wrote (want the line %q)", name, fileHeader)
			}
			headed = true
			continue
		}
		p, ok := readPair(text)
		if !ok {
			return nil, fmt.Errorf("%s:%d: want KEY=\"VALUE\", got %q", name, line, text)
		}
		p.Line = line
		pairs = append(pairs, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !headed {
		return nil, errors.New(name + ": empty: not a settings file Spindle wrote")
	}
	return pairs, nil
}
