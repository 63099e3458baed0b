package scenario

import (
	"fmt"
	"strings"
)

// Parse splits a script into its blocks and its prologue (the blank and
// "#" lines before the first block). An error starts with the line
// number and a colon.
func Parse(text string) (blocks []Block, prologue []string, err error) {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i := 0; i < len(lines); {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			if len(blocks) == 0 {
				prologue = append(prologue, l)
			}
			i++
			continue
		}
		b := Block{Line: i + 1, Cmd: l}
		for i++; i < len(lines) && lines[i] != "----"; i++ {
			if strings.TrimSpace(lines[i]) == "" {
				return nil, nil, fmt.Errorf("%d: blank line before ----", i+1)
			}
			b.Input = append(b.Input, Input{Line: i + 1, Text: lines[i]})
		}
		if i == len(lines) {
			return nil, nil, fmt.Errorf("%d: %s: no ----", b.Line, b.Cmd)
		}
		var out []string
		for i++; i < len(lines) && lines[i] != ""; i++ {
			out = append(out, lines[i])
		}
		b.Expected = strings.Join(out, "\n")
		blocks = append(blocks, b)
	}
	return blocks, prologue, nil
}
