package splits

import (
	"fmt"
	"strconv"
)

// Kind is how a stage's input is cut into splits, one split a task.
type Kind string

const (
	// PerFile gives each file a split of its own, whole: Hadoop
	// Streaming's one map per file for a non-splittable input.
	PerFile Kind = "file"
	// PerBlock gives each block a split, with the hosts holding it
	// (Hadoop's FileInputFormat with its split size at the block size).
	PerBlock Kind = "block"
	// PerFiles packs N whole files a split, in listing order.
	PerFiles Kind = "files"
	// PerBytes packs files a split up to about N bytes, in listing order,
	// cutting a file larger than that at its block boundaries.
	PerBytes Kind = "bytes"
)

// Mode is a Kind with its number: files a split for PerFiles, bytes a
// split for PerBytes, 0 for the others. The zero Mode is PerFile's.
type Mode struct {
	Kind Kind
	N    int64
}

// Check reports a mode Plan cannot use.
func (m Mode) Check() error {
	switch m.Kind {
	case "", PerFile, PerBlock:
		if m.N != 0 {
			return fmt.Errorf("split %s takes no number (%d)", m.kind(), m.N)
		}
	case PerFiles, PerBytes:
		if m.N < 1 {
			return fmt.Errorf("split {%s: %d}: want at least 1", m.Kind, m.N)
		}
	default:
		return fmt.Errorf("split %q: want file, block, {files: N} or {bytes: SIZE}", string(m.Kind))
	}
	return nil
}

func (m Mode) kind() Kind {
	if m.Kind == "" {
		return PerFile
	}
	return m.Kind
}

// String is the mode as a job spec writes it: file, block, {files: 10},
// {bytes: 268435456}.
func (m Mode) String() string {
	switch k := m.kind(); k {
	case PerFiles, PerBytes:
		return "{" + string(k) + ": " + strconv.FormatInt(m.N, 10) + "}"
	default:
		return string(k)
	}
}
