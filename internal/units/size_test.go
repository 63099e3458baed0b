package units

import (
	"strings"
	"testing"
)

func TestParseSizeMiB(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		err  string
	}{
		{"512", 512, ""}, {"4g", 4096, ""}, {"4G", 4096, ""}, {"1024k", 1, ""}, {"2gb", 2048, ""}, {"1t", 1 << 20, ""},
		{"-1g", 0, "negative"}, {"1.5g", 0, "fractional"}, {"g", 0, "not a size"}, {"4x", 0, `unknown size unit "x"`},
		{"1536k", 0, "not a whole number of MiB"}, {"9999999999p", 0, "size too large"},
	} {
		got, err := ParseSizeMiB(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseSizeMiB(%q) = %d, %v; want an error containing %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseSizeMiB(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

func TestParseBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		err  string
	}{
		{"0", 0, ""}, {"1024", 1024, ""}, {"1k", 1024, ""}, {"64m", 64 << 20, ""}, {"1536k", 1536 << 10, ""}, {"2G", 2 << 30, ""},
		{"8191p", 8191 << 50, ""}, {"8192p", 0, "size too large"}, {"-1", 0, "negative"}, {"1.5k", 0, "fractional"},
		{"k", 0, "not a size"}, {"4x", 0, `unknown size unit "x"`},
	} {
		got, err := ParseBytes(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseBytes(%q) = %d, %v; want an error containing %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}
