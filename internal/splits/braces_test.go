package splits

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

func TestExpandBraces(t *testing.T) {
	for in, want := range map[string][]string{
		"d/*.txt":             {"d/*.txt"},
		"d/{a,b}.txt":         {"d/a.txt", "d/b.txt"},
		"{2024/01,2023/12}/*": {"2024/01/*", "2023/12/*"},
		"d/{a,{b,c}x}{1,2}":   {"d/a1", "d/a2", "d/bx1", "d/bx2", "d/cx1", "d/cx2"},
		`d/\{a,b\}`:           {`d/\{a,b\}`},
		"d/{a\\,b,c}":         {"d/a\\,b", "d/c"},
		"d/{,x}y":             {"d/y", "d/xy"},
	} {
		got, err := expandBraces(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %q, %v; want %q", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"d/{a,b":                    "a { with no }",
		"d/a}":                      "a } with no {",
		strings.Repeat("{a,b}", 11): "more than 1024 alternatives",
	} {
		if _, err := expandBraces(in); err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %s", in, err, want)
		}
	}
}

func TestListFSExpandsAlternativesAsGlobs(t *testing.T) {
	fsys := fstest.MapFS{"d/2024/a": {}, "d/2023/b": {}, "d/2022/c": {}}
	show := func(p string) string { return "/" + p }
	files, err := ListFS(context.Background(), fsys, "d/{2024,2023,2021,2024}", show, 10, 0)
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
	}
	if want := []string{"/d/2023/b", "/d/2024/a"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
	if _, err := ListFS(context.Background(), fsys, "d/{2021,2020}", show, 10, 0); err == nil || err.Error() != "/d/{2021,2020}: matched no file" {
		t.Errorf("no alternative matching: %v", err)
	}
	if _, err := ListFS(context.Background(), fsys, "d/{2021", show, 10, 0); err == nil || err.Error() != "/d/{2021: a { with no }" {
		t.Errorf("unclosed: %v", err)
	}
}
