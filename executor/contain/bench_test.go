package contain

import (
	"path/filepath"
	"testing"
)

// BenchmarkStartAndWait is one contained process's overhead: its guard's
// start, the process (/bin/true), its tree's check and the report.
func BenchmarkStartAndWait(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		p, err := Start(Spec{Argv: []string{"/bin/true"}, Env: env(), StdoutPath: filepath.Join(dir, "out"), StderrPath: filepath.Join(dir, "err")})
		if err != nil {
			b.Fatal(err)
		}
		if r := p.Wait(); r.ExitCode != 0 {
			b.Fatal(r)
		}
	}
}

// BenchmarkPooledStartAndWait is the same with a guard kept for reuse.
func BenchmarkPooledStartAndWait(b *testing.B) {
	dir := b.TempDir()
	pool := &Pool{}
	defer pool.Close()
	for b.Loop() {
		p, err := pool.Start(Spec{Argv: []string{"/bin/true"}, Env: env(), StdoutPath: filepath.Join(dir, "out"), StderrPath: filepath.Join(dir, "err")})
		if err != nil {
			b.Fatal(err)
		}
		if r := p.Wait(); r.ExitCode != 0 {
			b.Fatal(r)
		}
	}
}

// BenchmarkDescendants is one walk of /proc for a tree.
func BenchmarkDescendants(b *testing.B) {
	for b.Loop() {
		descendants(1)
	}
}
