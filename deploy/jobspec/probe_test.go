package jobspec

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestProbeSeeds(t *testing.T) {
	files, _ := filepath.Glob("testdata/fuzz/FuzzParse/[a-z]*")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		s := string(b)
		_ = s
		fmt.Println(f, len(b))
	}
}

func measure(name string, data []byte) {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	start := time.Now()
	_, err := Parse(data, "big.yaml", Defaults{})
	el := time.Since(start)
	runtime.ReadMemStats(&ms)
	e := "ok"
	if err != nil {
		e = strings.SplitN(err.Error(), "\n", 2)[0]
	}
	fmt.Printf("%s: %d bytes, %v, %d MB allocated: %s\n", name, len(data), el, (ms.TotalAlloc-before)>>20, e)
}

func TestProbeBig(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: j\nstages:\n")
	for i := 0; b.Len() < maxSpecBytes-100; i++ {
		fmt.Fprintf(&b, "- {name: s%d, tasks: 1, builtin: noop}\n", i)
	}
	measure("many stages", []byte(b.String()))

	b.Reset()
	b.WriteString("name: j\nstages:\n- {name: a, tasks: 1, builtin: noop}\n")
	for i := 1; b.Len() < maxSpecBytes-100; i++ {
		fmt.Fprintf(&b, "- {name: s%d, tasks: 1, builtin: noop, after: [%s]}\n", i, map[bool]string{true: "a", false: fmt.Sprintf("s%d", i-1)}[i == 1])
	}
	measure("chain", []byte(b.String()))

	b.Reset()
	b.WriteString("name: j\nstages:\n- {name: a, tasks: 1, command: [")
	for b.Len() < maxSpecBytes-100 {
		b.WriteString("x,")
	}
	b.WriteString("x]}\n")
	measure("long command", []byte(b.String()))

	b.Reset()
	b.WriteString("name: j\nstages:\n- {name: a, tasks: 1, command: [")
	for i := 0; b.Len() < maxSpecBytes-100; i++ {
		fmt.Fprintf(&b, "'%d{{.Index}}',", i)
	}
	b.WriteString("x]}\n")
	measure("many templates", []byte(b.String()))

	b.Reset()
	b.WriteString("name: j\nstages:\n- &s {name: a, tasks: 1, builtin: noop}\n")
	for b.Len() < maxSpecBytes-100 {
		b.WriteString("- *s\n")
	}
	measure("aliased stages", []byte(b.String()))

	b.Reset()
	b.WriteString("name: j\nstages:\n- {name: a, tasks: 1, builtin: noop, env: {")
	for i := 0; b.Len() < maxSpecBytes-100; i++ {
		fmt.Fprintf(&b, "V%d: x,", i)
	}
	b.WriteString("Z: x}}\n")
	measure("big env", []byte(b.String()))

	b.Reset()
	b.WriteString("name: j\nstages:\n")
	for i := 0; b.Len() < maxSpecBytes-100; i++ {
		fmt.Fprintf(&b, "- {name: s%d, tasks: 1, builtin: noop, after: [nope]}\n", i)
	}
	measure("many bad refs", []byte(b.String()))
}
