package docs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// maxParagraphWords is the most words a paragraph of README.md may have: a
// front page is read in a glance, and long prose belongs in docs/.
const maxParagraphWords = 119

// paragraph is a run of prose: its first line and its words.
type paragraph struct {
	line, words int
}

// paragraphs splits a page's text outside fenced blocks into paragraphs:
// runs of lines between blank ones, a heading, a list item and a table
// row each starting one of its own.
func paragraphs(p *page) []paragraph {
	var out []paragraph
	for i := range p.starts {
		line := strings.TrimSpace(p.lineOf(p.unfenced, i))
		if line == "" {
			continue
		}
		starts := i == 0 || strings.TrimSpace(p.lineOf(p.unfenced, i-1)) == "" || blockStart.MatchString(line)
		if starts || len(out) == 0 {
			out = append(out, paragraph{line: i + 1})
		}
		out[len(out)-1].words += len(strings.Fields(line))
	}
	return out
}

var blockStart = regexp.MustCompile(`^(#|[-*+] |\d+\. |\|)`)

// longParagraphs are the paragraphs over maxParagraphWords.
func longParagraphs(p *page) []string {
	var problems []string
	for _, para := range paragraphs(p) {
		if para.words > maxParagraphWords {
			problems = append(problems, fmt.Sprintf("%s:%d: a paragraph of %d words (at most %d: move the detail to docs/)",
				p.path, para.line, para.words, maxParagraphWords))
		}
	}
	return problems
}

func TestReadmeParagraphsAreShort(t *testing.T) {
	for _, problem := range longParagraphs(readPage(t, repo(t).root, "README.md")) {
		t.Error(problem)
	}
}

// The limit's edge: 119 words pass, 120 fail, however they are broken
// into lines; a list item is a paragraph of its own.
func TestParagraphLimitIsAt120Words(t *testing.T) {
	words := func(n int) string { return strings.TrimSpace(strings.Repeat("word ", n)) }
	lines := func(n int) string { return strings.Replace(words(n), " ", "\n", 10) }
	for _, c := range []struct {
		text string
		long bool
	}{
		{"# Title\n\n" + words(119) + "\n", false},
		{"# Title\n\n" + words(120) + "\n", true},
		{"# Title\n\n" + lines(119) + "\n\nmore\n", false},
		{"# Title\n\n" + lines(120) + "\n\nmore\n", true},
		{"- " + words(100) + "\n- " + words(100) + "\n", false},
		{"```\n" + words(200) + "\n```\n", false},
	} {
		if got := len(longParagraphs(newPage("README.md", c.text))) > 0; got != c.long {
			t.Errorf("%d words in %d lines: too long %v, want %v", len(strings.Fields(c.text)), strings.Count(c.text, "\n"), got, c.long)
		}
	}
}

// README.md's "Where things are" names every package and every top-level
// directory. In its listing a line that starts at the margin names a
// top-level entry (cmd/spindle/, deploy/); every other dir/ word on it and
// on the indented lines below is a directory under that entry.
func TestReadmeWhereThingsAreCoversEveryPackage(t *testing.T) {
	m := repo(t)
	p := readPage(t, m.root, "README.md")
	named, problems := m.whereThingsAre(p)
	for _, problem := range problems {
		t.Error(problem)
	}
	for _, rel := range m.sortedPackages() {
		if !named[rel] {
			t.Errorf("%s: \"Where things are\" does not name package %s", p.path, rel)
		}
	}
	entries, err := os.ReadDir(m.root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && !m.isBuildOutput(e.Name()) && !named[e.Name()] {
			t.Errorf("%s: \"Where things are\" does not name the directory %s/", p.path, e.Name())
		}
	}
}

var dirWord = regexp.MustCompile(`(?:^|[\s(])([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*)/`)

// whereThingsAre reads the section's listing: the directories it names
// and their top-level ones, and a message for each that does not exist.
func (m *module) whereThingsAre(p *page) (named map[string]bool, problems []string) {
	from, to, ok := p.section("Where things are")
	if !ok {
		return nil, []string{p.path + `: no section "Where things are"`}
	}
	named = map[string]bool{}
	top := ""
	for i, start := range p.starts {
		line := p.lineText(i)
		if start < from || start >= to || !p.inFence(start) || strings.HasPrefix(strings.TrimSpace(line), "```") {
			continue
		}
		for j, w := range dirWord.FindAllStringSubmatch(line, -1) {
			rel := w[1]
			if j == 0 && !strings.HasPrefix(line, " ") {
				top = rel
			} else {
				rel = top + "/" + rel
			}
			if _, err := os.Stat(filepath.Join(m.root, rel)); err != nil {
				problems = append(problems, fmt.Sprintf("%s:%d: `%s/` does not exist", p.path, i+1, rel))
			}
			first, _, _ := strings.Cut(rel, "/")
			named[rel], named[first] = true, true
		}
	}
	return named, problems
}
