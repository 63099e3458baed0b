package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// page is a Markdown file as the checks read it: its text, where each
// line starts, and its fenced code blocks.
type page struct {
	path   string // relative to the repository: "docs/architecture.md"
	text   string
	starts []int    // each line's offset
	fences [][2]int // each fenced block's offsets, fences included
	// unfenced is text with the fenced blocks blanked, offsets kept.
	unfenced string
}

// mention is a word of a page, where it is.
type mention struct {
	page *page
	off  int
	text string
}

// at is the mention's place as an error message starts it: "README.md:12".
func (m mention) at() string { return m.page.at(m.off) }

func readPage(t *testing.T, root, rel string) *page {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return newPage(rel, string(b))
}

func newPage(rel, text string) *page {
	p := &page{path: rel, text: text, starts: []int{0}}
	for i, c := range text {
		if c == '\n' {
			p.starts = append(p.starts, i+1)
		}
	}
	open := -1
	for i, start := range p.starts {
		if !strings.HasPrefix(strings.TrimLeft(p.lineText(i), " "), "```") {
			continue
		}
		if open < 0 {
			open = start
			continue
		}
		p.fences = append(p.fences, [2]int{open, start + len(p.lineText(i))})
		open = -1
	}
	b := []byte(text)
	for _, f := range p.fences {
		blank(b, f[0], f[1])
	}
	p.unfenced = string(b)
	return p
}

// blank makes b[from:to] spaces, keeping line breaks.
func blank(b []byte, from, to int) {
	for i := from; i < to; i++ {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
}

// lineText is line i (0-based) without its newline.
func (p *page) lineText(i int) string { return p.lineOf(p.text, i) }

// lineOf is line i of text, the page's text or a blanked copy of it.
func (p *page) lineOf(text string, i int) string {
	end := len(text)
	if i+1 < len(p.starts) {
		end = p.starts[i+1] - 1
	}
	return text[p.starts[i]:end]
}

func (p *page) line(off int) int {
	return sort.Search(len(p.starts), func(i int) bool { return p.starts[i] > off })
}

func (p *page) at(off int) string { return p.path + ":" + strconv.Itoa(p.line(off)) }

func (p *page) inFence(off int) bool {
	for _, f := range p.fences {
		if off >= f[0] && off < f[1] {
			return true
		}
	}
	return false
}

// codeSpan is a code span; the docs use single backticks only.
var codeSpan = regexp.MustCompile("`([^`]+)`")

// spans are the page's code spans outside fenced blocks, in [from, to),
// their text with line breaks made spaces.
func (p *page) spans(from, to int) []mention {
	var out []mention
	for _, loc := range codeSpan.FindAllStringSubmatchIndex(p.unfenced[from:to], -1) {
		text := strings.Join(strings.Fields(p.text[from+loc[2]:from+loc[3]]), " ")
		out = append(out, mention{page: p, off: from + loc[2], text: text})
	}
	return out
}

// prose is the page's text outside fenced blocks and code spans, the rest
// blanked so that offsets still hold.
func (p *page) prose() string {
	b := []byte(p.unfenced)
	for _, loc := range codeSpan.FindAllStringIndex(p.unfenced, -1) {
		blank(b, loc[0], loc[1])
	}
	return string(b)
}

var linkTarget = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// links are the targets of the page's links and images, outside code.
func (p *page) links() []mention {
	var out []mention
	for _, loc := range linkTarget.FindAllStringSubmatchIndex(p.prose(), -1) {
		out = append(out, mention{page: p, off: loc[2], text: p.text[loc[2]:loc[3]]})
	}
	return out
}

// section is the span of the section whose heading is title, up to the
// next heading of its level or above; ok is false if there is none.
func (p *page) section(title string) (from, to int, ok bool) {
	level := 0
	for i := range p.starts {
		line := p.lineText(i)
		if p.inFence(p.starts[i]) || !strings.HasPrefix(line, "#") {
			continue
		}
		hashes := len(line) - len(strings.TrimLeft(line, "#"))
		switch {
		case level == 0 && strings.TrimSpace(line[hashes:]) == title:
			level, from = hashes, p.starts[i]
		case level > 0 && hashes <= level:
			return from, p.starts[i], true
		}
	}
	return from, len(p.text), level > 0
}

// table is the rows of the table whose header line starts with header,
// each row's cells with their offsets; ok is false if there is none.
func (p *page) table(header string) (rows [][]mention, ok bool) {
	for i := range p.starts {
		if !strings.HasPrefix(p.lineText(i), header) {
			continue
		}
		for j := i + 2; j < len(p.starts) && strings.HasPrefix(p.lineText(j), "|"); j++ {
			rows = append(rows, p.cells(j))
		}
		return rows, true
	}
	return nil, false
}

// cells splits line i of a table into its cells (outer pipes dropped).
func (p *page) cells(i int) []mention {
	var cells []mention
	line, start := p.lineText(i), p.starts[i]
	for at := 1; at < len(line); {
		end := strings.IndexByte(line[at:], '|')
		if end < 0 {
			break
		}
		cells = append(cells, mention{page: p, off: start + at, text: line[at : at+end]})
		at += end + 1
	}
	return cells
}

// spansIn are the code spans of a table cell.
func (m mention) spansIn() []mention { return m.page.spans(m.off, m.off+len(m.text)) }
