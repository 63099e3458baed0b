package contain

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The control channel between a caller and its guard is a Unix stream
// socket, the guard's file descriptor 3, carrying one JSON object per
// line:
//
//	caller                                    guard
//	  | request{argv, outputs, grace}          |
//	  |--------------------------------------->|  starts the process
//	  |                report{started: pid}    |
//	  |<---------------------------------------|  or report{failed: why}, then exits
//	  | command{stop: true}   (any time, any   |
//	  |--------------------------------------->|  number of times)
//	  |      report{ended, code, signal, cut}  |
//	  |<---------------------------------------|  then the guard exits
//
// End-of-file on the guard's side means the caller is gone: the guard
// kills the tree at once.

// request is what to run: the first line the guard reads.
type request struct {
	Argv       []string `json:"argv"`
	StdoutPath string   `json:"stdout,omitempty"`
	StderrPath string   `json:"stderr,omitempty"`
	MaxOutput  int64    `json:"maxOutput,omitempty"`
	GraceMS    int64    `json:"graceMs"`
}

// command is a later line from the caller.
type command struct {
	Stop bool `json:"stop,omitempty"`
}

// report is a line from the guard.
type report struct {
	Started   int    `json:"started,omitempty"` // the process's pid
	Failed    string `json:"failed,omitempty"`  // it could not be started: why
	Ended     bool   `json:"ended,omitempty"`
	Code      int    `json:"code,omitempty"`
	Signal    int    `json:"signal,omitempty"`
	StdoutCut int64  `json:"stdoutCut,omitempty"`
	StderrCut int64  `json:"stderrCut,omitempty"`
	OutputErr string `json:"outputErr,omitempty"`
}

// maxLine bounds one control line. A request carries the argv, which the
// kernel bounds (ARG_MAX, 2 MiB by default) before it is ever run.
const maxLine = 4 << 20

// writeLine sends v as one line.
func writeLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// errLineTooLong is a control line over maxLine.
var errLineTooLong = errors.New("control line too long")

// readLine reads one line into v, refusing lines over maxLine before
// buffering them whole.
func readLine(r *bufio.Reader, v any) error {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > maxLine {
			return errLineTooLong
		}
		line = append(line, chunk...)
		if err == nil {
			break
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			if errors.Is(err, io.EOF) && len(line) > 0 {
				return io.ErrUnexpectedEOF
			}
			return err
		}
	}
	if err := json.Unmarshal(line, v); err != nil {
		return fmt.Errorf("control line: %w", err)
	}
	return nil
}
