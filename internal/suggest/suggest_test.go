package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"minShare", "minShare", 3, 0},
		{"minshare", "minShare", 3, 1},
		{"wieght", "weight", 3, 2},
		{"kitten", "sitting", 5, 3},
		{"kitten", "sitting", 3, 3},
		{"a", "abcdefgh", 3, 3},
		{"", "abc", 5, 3},
	} {
		if got := Distance(c.a, c.b, c.limit); got != c.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", c.a, c.b, c.limit, got, c.want)
		}
	}
}
