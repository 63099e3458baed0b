package scenario

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// Block is one command of a script.
type Block struct {
	Line     int // of the command, from 1
	Cmd      string
	Input    []Input
	Expected string
}

// Input is one input line of a block, with its line number.
type Input struct {
	Line int
	Text string
}

// Step runs one block and returns its output ("" reads as "ok"). An
// error fails the script at the block's line, or at the line an AtLine
// error names.
type Step func(b Block) (string, error)

// Mismatch is a block whose output differs from the expected.
type Mismatch struct {
	Line          int
	Cmd           string
	Got, Expected string
}

func (m Mismatch) String() string {
	return fmt.Sprintf("%d: %s\n got:\n%s\nwant:\n%s", m.Line, m.Cmd, m.Got, m.Expected)
}

// Result is a script run: what differs, and the script with every
// block's expected output replaced by what it printed (for -update).
type Result struct {
	Mismatches []Mismatch
	Rewritten  string
}

// lineError places an error on a line other than its block's command.
type lineError struct {
	line int
	err  error
}

func (e *lineError) Error() string { return e.err.Error() }
func (e *lineError) Unwrap() error { return e.err }

// AtLine says err is about line (an input line), not its block's command.
func AtLine(line int, err error) error {
	if err == nil {
		return nil
	}
	return &lineError{line: line, err: err}
}

// RunFile runs the script at path through step, block by block; the first
// block that fails ends the run with an error naming path and line.
func RunFile(path string, step Step) (Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Result{}, err
	}
	blocks, prologue, err := Parse(string(data))
	if err != nil {
		return Result{}, fmt.Errorf("%s:%w", path, err)
	}
	var res Result
	var out strings.Builder
	for _, l := range prologue {
		out.WriteString(l + "\n")
	}
	for i, b := range blocks {
		got, err := step(b)
		if err != nil {
			line := b.Line
			if le := (*lineError)(nil); errors.As(err, &le) {
				line = le.line
			}
			return res, fmt.Errorf("%s:%d: %s: %w", path, line, b.Cmd, err)
		}
		if got = strings.TrimRight(got, "\n"); got == "" {
			got = "ok"
		}
		if i > 0 {
			out.WriteString("\n")
		}
		writeBlock(&out, b, got)
		if got != b.Expected {
			res.Mismatches = append(res.Mismatches, Mismatch{Line: b.Line, Cmd: b.Cmd, Got: got, Expected: b.Expected})
		}
	}
	res.Rewritten = out.String()
	return res, nil
}

func writeBlock(out *strings.Builder, b Block, got string) {
	out.WriteString(b.Cmd + "\n")
	for _, in := range b.Input {
		out.WriteString(in.Text + "\n")
	}
	out.WriteString("----\n" + got + "\n")
}
