package webui

import (
	"context"
	"encoding/xml"
	"io"
	"math"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/am/history"
)

// wcagAA is the contrast WCAG 2's level AA asks of normal text.
const wcagAA = 4.5

// Every text of the page header, in every state the application can be
// in, has at least WCAG AA's contrast against the header's background,
// as the page's own stylesheet colours them: each colour the cascade
// gives it, and each a rule for one of its states (:hover, :visited...)
// could give it.
func TestTheHeaderIsReadable(t *testing.T) {
	for _, end := range []*history.AppEnded{nil, {Succeeded: true}, {Succeeded: false, Diagnostics: "a job failed"}} {
		s := history.NewStore(history.Limits{})
		ev := []history.Event{{Time: t0, App: &history.AppStarted{ID: "application_1_0002", Name: "shared", Master: "yarn"}}}
		if end != nil {
			ev = append(ev, history.Event{Time: t0.Add(time.Second), AppEnded: end})
		}
		if err := s.Record(ev...); err != nil {
			t.Fatal(err)
		}
		for _, live := range []func(context.Context) (core.Status, error){nil, noStatus} {
			checkHeader(t, s, handler(s, live))
		}
	}
}

func noStatus(context.Context) (core.Status, error) { return core.Status{}, nil }

// checkHeader checks the header of h's jobs page.
func checkHeader(t *testing.T, s *history.Store, h http.Handler) {
	t.Helper()
	code, body := get(t, h, "GET", "/")
	if code != http.StatusOK {
		t.Fatalf("GET / = %d", code)
	}
	state := s.App().State
	if !strings.Contains(body, `http-equiv="refresh"`) && strings.Contains(body, "(history)") {
		state += " (history)"
	}
	sheet := parseStylesheet(t, inner(t, body, "style"))
	texts := headerTexts(t, "<header>"+inner(t, body, "header")+"</header>")
	if len(texts) < 3 {
		t.Fatalf("app %s: the header has %d texts, want its name, id and state at least", state, len(texts))
	}
	for _, tx := range texts {
		bg := sheet.background(tx.path)
		for _, fg := range sheet.colours(tx.path) {
			if r := contrast(fg, bg); r < wcagAA {
				t.Errorf("app %s: header text %q (%s) is %s on %s: contrast %.2f:1, want %.1f:1 (WCAG AA)",
					state, tx.text, tx.where(), fg, bg, r, wcagAA)
			}
		}
	}
}

// The contrast ratio is WCAG 2's, from the colours' relative luminance.
func TestContrastIsWCAGs(t *testing.T) {
	for _, c := range []struct {
		fg, bg string
		want   float64
	}{{"#000", "#fff", 21}, {"#fff", "#fff", 1}, {"#777777", "#ffffff", 4.48}, {"#1860a8", "#243b53", 1.80}} {
		if got := contrast(parseColour(c.fg), parseColour(c.bg)); math.Abs(got-c.want) > 0.01 {
			t.Errorf("contrast(%s, %s) = %.3f, want %.2f", c.fg, c.bg, got, c.want)
		}
	}
}

// inner is what the page's first element named tag holds.
func inner(t *testing.T, page, tag string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<` + tag + `\b[^>]*>(.*?)</` + tag + `>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the page has no <%s>", tag)
	}
	return m[1]
}

// element is an element as selectors match it.
type element struct {
	tag, id string
	classes []string
}

// headerText is a text of the header, with the elements it is in,
// outermost first (html, body, header, ...).
type headerText struct {
	text string
	path []element
}

func (h headerText) where() string {
	var parts []string
	for _, e := range h.path {
		parts = append(parts, e.tag+strings.Join(append([]string{""}, e.classes...), "."))
	}
	return strings.Join(parts, " > ")
}

// headerTexts reads the header's HTML with encoding/xml in its HTML mode.
func headerTexts(t *testing.T, header string) []headerText {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(header))
	d.Strict, d.AutoClose, d.Entity = false, xml.HTMLAutoClose, xml.HTMLEntity
	stack := []element{{tag: "html"}, {tag: "body"}}
	var out []headerText
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("the header does not read: %v\n%s", err, header)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := element{tag: strings.ToLower(tok.Name.Local)}
			for _, a := range tok.Attr {
				switch a.Name.Local {
				case "class":
					e.classes = strings.Fields(a.Value)
				case "id":
					e.id = a.Value
				}
			}
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if text := strings.TrimSpace(string(tok)); text != "" {
				out = append(out, headerText{text: text, path: append([]element(nil), stack...)})
			}
		}
	}
}
