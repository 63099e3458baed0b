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
// line. A guard runs one process at a time, and may run many in turn:
//
//	caller                                    guard
//	  | message{run: request}                  |
//	  |--------------------------------------->|  starts the process
//	  |                report{started: pid}    |
//	  |<---------------------------------------|  or report{failed: why}
//	  | message{stop: true}   (any time, any   |
//	  |--------------------------------------->|  number of times)
//	  | message{signal: 15}   (any time, any   |
//	  |--------------------------------------->|  number of times)
//	  |      report{ended, code, signal, cut}  |
//	  |<---------------------------------------|  the tree is gone
//	  | message{run: request}  (the next one)  |
//	  |--------------------------------------->|  …
//
// End-of-file on the guard's side means the caller is gone: the guard
// kills the tree at once, if there is one, and exits. A stop or a signal
// that arrives once the process has ended is ignored.

// message is a line from the caller.
type message struct {
	Run  *request `json:"run,omitempty"`
	Stop bool     `json:"stop,omitempty"`
	// Signal, when set, is sent to the process's group and tree now,
	// with no grace period and nothing after it: Process.Signal. Once
	// signalled, the tree may outlive the process until it ends by
	// itself, or the caller ends it.
	Signal int `json:"signal,omitempty"`
}

// request is what to run.
type request struct {
	Argv       []string `json:"argv"`
	Env        []string `json:"env"`
	Dir        string   `json:"dir,omitempty"`
	StdoutPath string   `json:"stdout,omitempty"`
	StderrPath string   `json:"stderr,omitempty"`
	MaxOutput  int64    `json:"maxOutput,omitempty"`
	GraceMS    int64    `json:"graceMs"`
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

// maxLine bounds one control line. A request carries the argv and the
// environment, which the kernel bounds together (ARG_MAX, 2 MiB by
// default) before they are ever run.
const maxLine = 8 << 20

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
