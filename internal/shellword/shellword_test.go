package shellword

import "testing"

func TestQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"yarn", "yarn"},
		{"--master", "--master"},
		{"spindle.worker.resource.gpu.addresses=0,1", "spindle.worker.resource.gpu.addresses=0,1"},
		{"local[2]", "'local[2]'"},
		{"", "''"},
		{"a b", "'a b'"},
		{"it's", `'it'\''s'`},
		{"a\nb", `"a\nb"`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	if got := Join([]string{"--master", "local[*]", "job.yaml"}); got != "--master 'local[*]' job.yaml" {
		t.Errorf("Join = %s", got)
	}
}
