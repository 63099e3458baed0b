package splits

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The file a task reads its split from (SPINDLE_INPUT_FILE, in
// executor/taskenv) holds one piece a line: its path, offset and length
// in bytes, separated by tabs, each line ending in a newline:
//
//	hdfs://nn:8020/data/part-00000	0	134217728
//
// Tabs, because a path may hold spaces, commas and colons (a URI always
// does) but a tab in a file name is vanishingly rare, and Spindle refuses
// one; and because every tool splits on them: `IFS=$'\t' read -r path
// offset length`, `cut -f1`, awk -F'\t', Python's line.rstrip("\n").split("\t").
// The numbers are plain decimal, as strconv writes them.

// WritePieces writes pieces in the split file's format. A path holding a
// tab or a newline, or an empty one, cannot be written and is an error
// naming it.
func WritePieces(w io.Writer, pieces []Piece) error {
	var b bytes.Buffer
	for _, p := range pieces {
		if err := checkPiece(p); err != nil {
			return err
		}
		b.WriteString(p.Path)
		b.WriteByte('\t')
		b.WriteString(strconv.FormatInt(p.Offset, 10))
		b.WriteByte('\t')
		b.WriteString(strconv.FormatInt(p.Length, 10))
		b.WriteByte('\n')
	}
	_, err := w.Write(b.Bytes())
	return err
}

// checkPiece reports a piece the format cannot carry.
func checkPiece(p Piece) error {
	switch {
	case p.Path == "":
		return fmt.Errorf("a piece with no path")
	case strings.ContainsAny(p.Path, "\t\n\r"):
		return fmt.Errorf("%q: a tab or line break in a path cannot be written in a split file", p.Path)
	case p.Offset < 0 || p.Length < 0 || p.Length > maxInt64-p.Offset:
		return fmt.Errorf("%s: offset %d and length %d out of range", p.Path, p.Offset, p.Length)
	}
	return nil
}

const maxInt64 = 1<<63 - 1

// ParsePieces reads a split file: exactly what WritePieces writes, so
// that a mistake in a hand-made one is reported, by line, rather than
// read as something else.
func ParsePieces(data []byte) ([]Piece, error) {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		return nil, fmt.Errorf("split file: its last line does not end in a newline")
	}
	var pieces []Piece
	for n := 1; len(data) > 0; n++ {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		p, err := parsePiece(string(line))
		if err != nil {
			return nil, fmt.Errorf("split file line %d: %v", n, err)
		}
		pieces = append(pieces, p)
	}
	return pieces, nil
}

// parsePiece reads one line, without its newline.
func parsePiece(line string) (Piece, error) {
	fields := strings.Split(line, "\t")
	if len(fields) != 3 {
		return Piece{}, fmt.Errorf("%d tab-separated fields: want path, offset and length", len(fields))
	}
	offset, err := parseCount(fields[1])
	if err != nil {
		return Piece{}, fmt.Errorf("offset: %v", err)
	}
	length, err := parseCount(fields[2])
	if err != nil {
		return Piece{}, fmt.Errorf("length: %v", err)
	}
	p := Piece{Path: fields[0], Offset: offset, Length: length}
	return p, checkPiece(p)
}

// parseCount reads a number of bytes as strconv writes it: digits, no
// sign, no leading zero.
func parseCount(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || strconv.FormatInt(n, 10) != s {
		return 0, fmt.Errorf("%q: not a whole number of bytes", s)
	}
	return n, nil
}
