package history

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"
)

// appendEvent appends e's line to buf. Attempts starting and ending are
// nearly every event a busy application makes: they are written by hand
// (encoding/json's reflection cost the loop a fifth of its throughput
// with 100,000 no-op tasks); the rest go through encoding/json. Both
// read back the same (TestTheFastEncodingReadsAsJSONs).
func appendEvent(buf []byte, e *Event) ([]byte, error) {
	var enc encoder
	return enc.appendEvent(buf, e)
}

// encoder writes lines; it keeps the last second's stamp (appendTime).
// A goroutine's own.
type encoder struct {
	second int64
	stamp  []byte
}

func (enc *encoder) appendEvent(buf []byte, e *Event) ([]byte, error) {
	switch {
	case e.TaskStarted != nil && e.kinds() == 1:
		ts := e.TaskStarted
		buf = enc.appendAttempt(buf, e.Time, `taskStarted`, ts.Stage, ts.Index, ts.Attempt, ts.Executor)
		if len(ts.GPUs) > 0 {
			buf = append(buf, `,"gpus":[`...)
			for i, g := range ts.GPUs {
				if i > 0 {
					buf = append(buf, ',')
				}
				buf = appendString(buf, g)
			}
			buf = append(buf, ']')
		}
		buf = appendResources(buf, ts.Accels)
		return append(buf, "}}\n"...), nil
	case e.TaskEnded != nil && e.kinds() == 1:
		te := e.TaskEnded
		buf = enc.appendAttempt(buf, e.Time, `taskEnded`, te.Stage, te.Index, te.Attempt, te.Executor)
		buf = append(buf, `,"state":`...)
		buf = appendString(buf, te.State)
		if te.ExitCode != 0 {
			buf = append(buf, `,"exitCode":`...)
			buf = strconv.AppendInt(buf, int64(te.ExitCode), 10)
		}
		if te.Reason != "" {
			buf = append(buf, `,"reason":`...)
			buf = appendString(buf, te.Reason)
		}
		return append(buf, "}}\n"...), nil
	}
	line, err := json.Marshal(e)
	if err != nil {
		return buf, err
	}
	return append(append(buf, line...), '\n'), nil
}

// appendResources appends an attempt's accelerators besides GPUs, if
// any, as encoding/json writes them.
func appendResources(buf []byte, rs []Resource) []byte {
	if len(rs) == 0 {
		return buf
	}
	buf = append(buf, `,"accels":[`...)
	for i, r := range rs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"name":`...)
		buf = appendString(buf, r.Name)
		buf = append(buf, `,"addresses":`...)
		buf = appendStrings(buf, r.Addresses)
		buf = append(buf, '}')
	}
	return append(buf, ']')
}

// appendStrings appends a list of strings, null when nil as
// encoding/json writes it.
func appendStrings(buf []byte, ss []string) []byte {
	if ss == nil {
		return append(buf, "null"...)
	}
	buf = append(buf, '[')
	for i, s := range ss {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendString(buf, s)
	}
	return append(buf, ']')
}

// appendTime opens a line with its time, RFC 3339 in UTC to the
// nanosecond. A busy loop's events come many to a second: the second's
// part is formatted once and kept, the nanoseconds written as digits
// (time.AppendFormat was a third of a line's cost).
func (enc *encoder) appendTime(buf []byte, t time.Time) []byte {
	t = t.UTC()
	buf = append(buf, `{"t":"`...)
	if sec := t.Unix(); sec != enc.second || enc.stamp == nil {
		enc.second, enc.stamp = sec, t.AppendFormat(enc.stamp[:0], "2006-01-02T15:04:05")
	}
	buf = append(buf, enc.stamp...)
	ns := t.Nanosecond()
	buf = append(buf, '.')
	for div := 100000000; div > 0; div /= 10 {
		buf = append(buf, byte('0'+ns/div%10))
	}
	return append(buf, `Z"`...)
}

// appendAttempt opens an attempt's line, up to its kind's fields.
func (enc *encoder) appendAttempt(buf []byte, t time.Time, kind string, stage int64, index, attempt int, executor string) []byte {
	buf = enc.appendTime(buf, t)
	buf = append(buf, `,"`...)
	buf = append(buf, kind...)
	buf = append(buf, `":{"stage":`...)
	buf = strconv.AppendInt(buf, stage, 10)
	buf = append(buf, `,"index":`...)
	buf = strconv.AppendInt(buf, int64(index), 10)
	buf = append(buf, `,"attempt":`...)
	buf = strconv.AppendInt(buf, int64(attempt), 10)
	buf = append(buf, `,"executor":`...)
	return appendString(buf, executor)
}

// appendString appends s as a JSON string: as it is when it is printable
// ASCII with nothing to escape, else as encoding/json writes it.
func appendString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(buf, q...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}
