package svgplot

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/spindle-yarn/spindle/internal/svgplot/svgtest"
)

// Any points and labels give a document that parses, within the bound of
// points per series.
func FuzzWriteSVG(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}, "executors", true)
	f.Add(bytes.Repeat([]byte{0xff}, 64), "<&>\x00", false)
	f.Fuzz(func(t *testing.T, raw []byte, label string, whole bool) {
		var ps []Point
		for len(raw) >= 16 {
			x := math.Float64frombits(binary.LittleEndian.Uint64(raw))
			y := math.Float64frombits(binary.LittleEndian.Uint64(raw[8:]))
			ps, raw = append(ps, Point{x, y}), raw[16:]
		}
		c := Chart{Title: label, XLabel: label, Panels: []Panel{{ID: label, YLabel: label, Whole: whole,
			Series: []Series{{ID: "s", Label: label, Color: label, Points: ps}}}}}
		var buf bytes.Buffer
		if err := c.WriteSVG(&buf); err != nil {
			return // a label XML cannot carry
		}
		if _, err := svgtest.Parse(buf.Bytes()); err != nil {
			t.Fatalf("does not parse: %v\n%s", err, buf.String())
		}
	})
}
