package config

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxPropertiesBytes bounds what one properties file may hold. Real files are
// a few KiB; the bound keeps a wrong path (a log, a device) from being read
// whole into memory.
const maxPropertiesBytes = 1 << 20

// An entry is one key and value from a properties file, with the line its
// logical line starts on.
type entry struct {
	key, value string
	line       int
}

// parseProperties reads text in the java.util.Properties form that Spark's
// Utils.getPropertiesFromFile loads spark-defaults.conf with:
//
//   - natural lines end at \n, \r or \r\n; a line whose first non-blank
//     character is # or ! is a comment; blank lines are skipped;
//   - a line ending in an odd number of backslashes continues on the next
//     line, whose leading blanks (space, tab, form feed) are dropped; a
//     comment line never continues, and a continuation line is never a
//     comment;
//   - the key runs to the first unescaped =, : or blank; blanks, then at most
//     one = or :, then blanks, separate it from the value, which runs to the
//     end of the logical line (so "key value # note" has the value
//     "value # note");
//   - escapes: \t \n \r \f, \uXXXX, and a backslash before any other
//     character stands for that character;
//   - the value is then trimmed of leading and trailing characters up to
//     U+0020 except \r and \n, which only escapes can produce (Spark's
//     trimExceptCRLF).
//
// Where Java is lenient Spindle reports an error naming name:line: bytes
// that are not UTF-8 (Java substitutes U+FFFD), a malformed \uXXXX (Java
// throws without a line) and half of a surrogate pair. A leading UTF-8 byte
// order mark is skipped (Java would make it part of the first key).
//
// It returns every entry it could read and every error, so one bad line does
// not hide the next.
func parseProperties(name string, r io.Reader) ([]entry, []error) {
	data, err := io.ReadAll(io.LimitReader(r, maxPropertiesBytes+1))
	if err != nil {
		return nil, []error{fmt.Errorf("%s: %w", name, err)}
	}
	if len(data) > maxPropertiesBytes {
		return nil, []error{fmt.Errorf("%s: larger than %d bytes; is this a properties file?", name, maxPropertiesBytes)}
	}
	lines := naturalLines(strings.TrimPrefix(string(data), "\ufeff"))

	var entries []entry
	var errs []error
	for i := 0; i < len(lines); i++ {
		start := i + 1
		part := trimBlanks(lines[i])
		if part == "" || part[0] == '#' || part[0] == '!' {
			continue
		}
		// A lone backslash continues an empty logical line, and Java then
		// reads the next natural line as a fresh start: it may be blank or a
		// comment. (On the last line Java makes an entry with an empty key,
		// or none, depending on the line terminator; Spindle makes none.)
		if part == `\` {
			continue
		}
		var logical strings.Builder
		valid := checkUTF8(name, start, part, &errs)
		for continues(part) && i+1 < len(lines) {
			logical.WriteString(part[:len(part)-1])
			i++
			part = trimBlanks(lines[i])
			valid = checkUTF8(name, i+1, part, &errs) && valid
		}
		// At the end of the text a continuation has nothing to join: its
		// backslash is dropped, as Java does.
		if continues(part) {
			part = part[:len(part)-1]
		}
		logical.WriteString(part)
		if !valid {
			continue
		}

		rawKey, rawValue := splitKeyValue(logical.String())
		key, kerr := unescape(rawKey)
		value, verr := unescape(rawValue)
		if err := cmp.Or(kerr, verr); err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: %w", name, start, err))
			continue
		}
		entries = append(entries, entry{key: key, value: trimValue(value), line: start})
	}
	return entries, errs
}

// checkUTF8 reports whether a natural line is UTF-8, and records an error
// naming it when it is not.
func checkUTF8(name string, line int, s string, errs *[]error) bool {
	if utf8.ValidString(s) {
		return true
	}
	*errs = append(*errs, fmt.Errorf("%s:%d: not valid UTF-8", name, line))
	return false
}

// naturalLines splits text at \n, \r and \r\n.
func naturalLines(text string) []string {
	var lines []string
	for text != "" {
		end := strings.IndexAny(text, "\r\n")
		if end < 0 {
			lines = append(lines, text)
			break
		}
		lines = append(lines, text[:end])
		if strings.HasPrefix(text[end:], "\r\n") {
			end++
		}
		text = text[end+1:]
	}
	return lines
}

// isBlank reports the characters java.util.Properties treats as white space
// between and before keys: space, tab and form feed.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\f' }

func trimBlanks(s string) string {
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	return s[i:]
}

// continues reports whether a natural line ends in an odd number of
// backslashes; an even number is escaped backslashes.
func continues(line string) bool {
	n := 0
	for n < len(line) && line[len(line)-1-n] == '\\' {
		n++
	}
	return n%2 == 1
}

// splitKeyValue splits a logical line, escapes still in place, into its key
// and value.
func splitKeyValue(line string) (key, value string) {
	keyEnd, valueStart, separated := len(line), len(line), false
	escaped := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if !escaped && (c == '=' || c == ':' || isBlank(c)) {
			keyEnd, valueStart, separated = i, i+1, c == '=' || c == ':'
			break
		}
		escaped = c == '\\' && !escaped
	}
	for ; valueStart < len(line); valueStart++ {
		c := line[valueStart]
		if isBlank(c) {
			continue
		}
		if separated || (c != '=' && c != ':') {
			break
		}
		separated = true
	}
	return line[:keyEnd], line[valueStart:]
}

// unescape resolves the backslash escapes of a key or value.
func unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		i++
		if i == len(s) {
			break // a lone trailing backslash stands for nothing, as in Java
		}
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			r, n, err := unicodeEscape(s[i-1:])
			if err != nil {
				return "", err
			}
			b.WriteRune(r)
			i += n - 2
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}

// unicodeEscape decodes the \uXXXX at the start of s, and the low half that
// must follow a high surrogate; it returns the rune and the bytes used.
func unicodeEscape(s string) (rune, int, error) {
	hi, err := hex4(s)
	if err != nil {
		return 0, 0, err
	}
	if !utf16.IsSurrogate(hi) {
		return hi, 6, nil
	}
	if lo, err := hex4(s[6:]); err == nil {
		if r := utf16.DecodeRune(hi, lo); r != utf8.RuneError {
			return r, 12, nil
		}
	}
	return 0, 0, fmt.Errorf(`%s is half of a UTF-16 surrogate pair`, s[:6])
}

// hex4 decodes one \uXXXX: exactly four hexadecimal digits, as Java requires.
func hex4(s string) (rune, error) {
	if len(s) >= 6 && s[0] == '\\' && s[1] == 'u' {
		// Base 16 given explicitly: no sign, no 0x prefix, no underscores.
		if n, err := strconv.ParseUint(s[2:6], 16, 16); err == nil {
			return rune(n), nil
		}
	}
	return 0, fmt.Errorf(`malformed \uXXXX escape %q: want four hexadecimal digits`, s[:min(len(s), 6)])
}

// trimValue is Spark's trimExceptCRLF: it trims characters up to U+0020 but
// keeps \r and \n, which survive loading only when escaped on purpose.
func trimValue(s string) string {
	kept := func(c byte) bool { return c > ' ' || c == '\r' || c == '\n' }
	start, end := 0, len(s)
	for start < end && !kept(s[start]) {
		start++
	}
	for end > start && !kept(s[end-1]) {
		end--
	}
	return s[start:end]
}
