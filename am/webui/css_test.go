package webui

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
)

// A stylesheet as far as TestTheHeaderIsReadable needs it: rules'
// selectors, matched against an element and its ancestors, the
// cascade's winner by specificity and order, and WCAG 2's contrast of
// the colours they set.

// rule is one selector of a CSS rule, with the declarations that
// matter here.
type rule struct {
	compounds   []compound // outermost first; any combinator read as a descendant's
	conditional bool       // it applies in a state (:hover) or to a part (::after) only
	specificity [3]int
	colour      string
	background  string
	order       int
}

type compound struct {
	tag, id string
	classes []string
}

func (c compound) matches(e element) bool {
	if c.tag != "" && c.tag != "*" && c.tag != e.tag || c.id != "" && c.id != e.id {
		return false
	}
	for _, cl := range c.classes {
		if !contains(e.classes, cl) {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// matches says whether r's selector matches the last element of path.
func (r rule) matches(path []element) bool {
	last := len(r.compounds) - 1
	if !r.compounds[last].matches(path[len(path)-1]) {
		return false
	}
	i := len(path) - 2
	for k := last - 1; k >= 0; k-- {
		for i >= 0 && !r.compounds[k].matches(path[i]) {
			i--
		}
		if i < 0 {
			return false
		}
		i--
	}
	return true
}

type stylesheet []rule

var (
	cssComment  = regexp.MustCompile(`(?s)/\*.*?\*/`)
	cssRule     = regexp.MustCompile(`([^{}]+)\{([^{}]*)\}`)
	conditional = regexp.MustCompile(`::?[a-zA-Z-]+(\([^)]*\))?|\[[^\]]*\]`)
	simple      = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9-]*|\*)?((?:[.#][a-zA-Z0-9_-]+)*)$`)
)

// parseStylesheet reads the rules of a stylesheet without at-rules,
// each selector of a rule as a rule of its own.
func parseStylesheet(t *testing.T, css string) stylesheet {
	t.Helper()
	css = cssComment.ReplaceAllString(css, "")
	if strings.Contains(css, "@") {
		t.Fatalf("the stylesheet has an at-rule, which this test does not read: extend it")
	}
	var sheet stylesheet
	for _, m := range cssRule.FindAllStringSubmatch(css, -1) {
		var colour, background string
		for _, decl := range strings.Split(m[2], ";") {
			prop, value, _ := strings.Cut(decl, ":")
			switch strings.TrimSpace(prop) {
			case "color":
				colour = strings.TrimSpace(value)
			case "background", "background-color":
				background = strings.TrimSpace(value)
			}
		}
		for _, sel := range strings.Split(m[1], ",") {
			r := readSelector(t, strings.TrimSpace(sel))
			r.colour, r.background, r.order = colour, background, len(sheet)
			sheet = append(sheet, r)
		}
	}
	return sheet
}

func readSelector(t *testing.T, sel string) rule {
	t.Helper()
	r := rule{conditional: conditional.MatchString(sel)}
	// Attribute and pseudo parts count as classes do (pseudo-elements as
	// elements, a difference that decides nothing here).
	r.specificity[1] += len(conditional.FindAllString(sel, -1))
	plain := conditional.ReplaceAllString(sel, "")
	for _, part := range strings.FieldsFunc(plain, func(c rune) bool { return strings.ContainsRune(" \t\n>+~", c) }) {
		m := simple.FindStringSubmatch(part)
		if m == nil {
			t.Fatalf("selector %q: %q does not read", sel, part)
		}
		c := compound{tag: strings.ToLower(m[1])}
		for _, q := range regexp.MustCompile(`[.#][a-zA-Z0-9_-]+`).FindAllString(m[2], -1) {
			if q[0] == '#' {
				c.id = q[1:]
				r.specificity[0]++
			} else {
				c.classes = append(c.classes, q[1:])
				r.specificity[1]++
			}
		}
		if c.tag != "" && c.tag != "*" {
			r.specificity[2]++
		}
		r.compounds = append(r.compounds, c)
	}
	if len(r.compounds) == 0 {
		r.compounds = []compound{{tag: "*"}} // a bare :root or ::selection
	}
	return r
}

// winner is the declaration of prop (by get) the cascade gives the last
// element of path among the rules that always apply, "" for none.
func (s stylesheet) winner(path []element, get func(rule) string) string {
	var best *rule
	for i := range s {
		r := &s[i]
		if r.conditional || get(*r) == "" || !r.matches(path) {
			continue
		}
		if best == nil || compareSpecificity(r.specificity, best.specificity) >= 0 {
			best = r
		}
	}
	if best == nil {
		return ""
	}
	return get(*best)
}

func compareSpecificity(a, b [3]int) int {
	for i := range a {
		if a[i] != b[i] {
			return a[i] - b[i]
		}
	}
	return 0
}

// colours are the colours the text at path may have: the cascade's,
// inherited where no rule sets it, and those of the conditional rules
// that match it.
func (s stylesheet) colours(path []element) []rgb {
	get := func(r rule) string { return r.colour }
	var out []rgb
	for n := len(path); n > 0; n-- {
		if v := s.winner(path[:n], get); v != "" && v != "inherit" {
			out = append(out, parseColour(v))
			break
		}
	}
	if len(out) == 0 {
		out = append(out, rgb{0, 0, 0}) // the browser's default
	}
	for _, r := range s {
		if r.conditional && r.colour != "" && r.colour != "inherit" && r.matches(path) {
			out = append(out, parseColour(r.colour))
		}
	}
	return out
}

// background is what shows behind the text at path: the nearest
// element's background, white where none has one.
func (s stylesheet) background(path []element) rgb {
	for n := len(path); n > 0; n-- {
		v := s.winner(path[:n], func(r rule) string { return r.background })
		if c, ok := backgroundColour(v); ok {
			return c
		}
	}
	return rgb{255, 255, 255}
}

func backgroundColour(v string) (rgb, bool) {
	for _, word := range strings.Fields(v) {
		if word != "transparent" && (strings.HasPrefix(word, "#") || strings.HasPrefix(word, "rgb(")) {
			return parseColour(word), true
		}
	}
	return rgb{}, false
}

type rgb struct{ r, g, b uint8 }

func (c rgb) String() string { return fmt.Sprintf("#%02x%02x%02x", c.r, c.g, c.b) }

var (
	hexColour = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
	rgbColour = regexp.MustCompile(`^rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$`)
)

// parseColour reads #rgb, #rrggbb, rgb(r,g,b) and the few names a page
// uses; any other spelling panics, failing the test until it reads it.
func parseColour(v string) rgb {
	switch strings.ToLower(v) {
	case "white":
		return rgb{255, 255, 255}
	case "black":
		return rgb{0, 0, 0}
	}
	var c rgb
	if m := rgbColour.FindStringSubmatch(v); m != nil {
		fmt.Sscan(m[1]+" "+m[2]+" "+m[3], &c.r, &c.g, &c.b)
		return c
	}
	if !hexColour.MatchString(v) {
		panic(fmt.Sprintf("colour %q: this test reads #rgb, #rrggbb and rgb() only", v))
	}
	h := v[1:]
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	fmt.Sscanf(h, "%02x%02x%02x", &c.r, &c.g, &c.b)
	return c
}

// luminance is WCAG 2's relative luminance of an sRGB colour.
func (c rgb) luminance() float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.r) + 0.7152*lin(c.g) + 0.0722*lin(c.b)
}

// contrast is WCAG 2's contrast ratio of two colours, 1 to 21.
func contrast(a, b rgb) float64 {
	la, lb := a.luminance(), b.luminance()
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}
