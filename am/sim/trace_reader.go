package sim

import (
	"bytes"
	"fmt"
	"io"
)

// boundedTrace passes a trace through to the CSV reader, refusing a row
// longer than maxRowBytes and a trace longer than maxTraceBytes: the CSV
// reader buffers a whole row, so input without newlines (/dev/zero) or
// without end (a pipe) would otherwise be read into memory without bound.
// A row ends at a newline outside quotes (a quoted field may hold
// newlines); its newline does not count.
type boundedTrace struct {
	r       io.Reader
	total   int64 // bytes read
	row     int   // bytes of the current row so far
	line    int   // the line being read, from 1
	rowLine int   // the line the current row began on
	quoted  bool  // inside a quoted field
}

func newBoundedTrace(r io.Reader) *boundedTrace {
	return &boundedTrace{r: r, line: 1, rowLine: 1}
}

// traceLimitError is a bound passed, on the line where the row began.
type traceLimitError struct {
	line int
	msg  string
}

func (e *traceLimitError) Error() string { return e.msg }

func (b *boundedTrace) Read(p []byte) (int, error) {
	// Never read more than one byte past the bound: that byte refuses it.
	if left := maxTraceBytes - b.total + 1; int64(len(p)) > left {
		p = p[:left]
	}
	n, err := b.r.Read(p)
	b.total += int64(n)
	if b.total > maxTraceBytes {
		return n, &traceLimitError{b.line, fmt.Sprintf("the trace is longer than %d bytes", maxTraceBytes)}
	}
	// The next quote and newline, each found by IndexByte (fast, and a
	// row of thousands of bytes has few of them).
	rest, quote, newline := p[:n], -1, -1
	for len(rest) > 0 {
		if quote < 0 {
			quote = indexOr(rest, '"')
		}
		if newline < 0 {
			newline = indexOr(rest, '\n')
		}
		i := min(quote, newline)
		switch {
		case i == len(rest):
			// The row goes on past this read.
		case i == newline && !b.quoted:
			// The row ends here; its newline does not count.
			if b.row += i; b.row > maxRowBytes {
				return n, b.rowTooLong()
			}
			b.line++
			b.row, b.rowLine = 0, b.line
			rest, quote, newline = rest[i+1:], quote-i-1, -1
			continue
		case i == quote:
			b.quoted = !b.quoted // "" inside quotes flips twice
			i++
		default: // a newline inside a quoted field: part of the row
			b.line++
			i++
		}
		if b.row += i; b.row > maxRowBytes {
			return n, b.rowTooLong()
		}
		rest, quote, newline = rest[i:], quote-i, newline-i
	}
	return n, err
}

func (b *boundedTrace) rowTooLong() error {
	return &traceLimitError{b.rowLine, fmt.Sprintf("a row longer than %d bytes", maxRowBytes)}
}

// indexOr is the index of c in b, or len(b).
func indexOr(b []byte, c byte) int {
	if i := bytes.IndexByte(b, c); i >= 0 {
		return i
	}
	return len(b)
}
