package localfs

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/internal/splits"
)

// tree makes files (path: content) under a new directory, and returns it.
func tree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// paths lists pattern and returns the paths relative to root, or the error.
func paths(t *testing.T, root, pattern string) ([]string, error) {
	t.Helper()
	files, err := Lister{}.List(context.Background(), pattern, 1000)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		out = append(out, strings.TrimPrefix(strings.TrimPrefix(f.Path, "file://"), root+"/"))
	}
	return out, nil
}

func TestListExpandsGlobsAndDirectoriesSkippingHiddenNames(t *testing.T) {
	root := tree(t, map[string]string{
		"in/a.txt": "aa", "in/b.txt": "b", "in/c.csv": "", "in/_SUCCESS": "", "in/.a.txt.crc": "",
		"in/sub/d.txt": "dd", "in/_temporary/0/x.txt": "", "in/.hidden/y.txt": "",
		"other/e.txt": "e",
	})
	for _, c := range []struct {
		pattern string
		want    []string
	}{
		{root + "/in/*.txt", []string{"in/a.txt", "in/b.txt"}},
		{"file://" + root + "/in/?.txt", []string{"in/a.txt", "in/b.txt"}},
		{root + "/in", []string{"in/a.txt", "in/b.txt", "in/c.csv", "in/sub/d.txt"}},
		{root + "/*/[be].txt", []string{"in/b.txt", "other/e.txt"}},
		{root + "/**/*.txt", []string{"in/a.txt", "in/b.txt", "in/sub/d.txt", "other/e.txt"}},
		{root + "/in/**", []string{"in/a.txt", "in/b.txt", "in/c.csv", "in/sub/d.txt"}},
		{root + "/in/_SUCCESS", []string{"in/_SUCCESS"}}, // named, not brought in
		{root + "/{in/sub,other}/*", []string{"in/sub/d.txt", "other/e.txt"}},
		{root + "/in/_*", []string{"in/_SUCCESS", "in/_temporary/0/x.txt"}},
	} {
		got, err := paths(t, root, c.pattern)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, %v; want %v", c.pattern, got, err, c.want)
		}
	}
}

func TestListGivesLengthsBlockSizeAndTheScheme(t *testing.T) {
	root := tree(t, map[string]string{"a": "12345"})
	files, err := Lister{BlockSize: 2}.List(context.Background(), "file://"+root+"/a", 10)
	want := []splits.File{{Path: "file://" + root + "/a", Length: 5, BlockSize: 2}}
	if err != nil || !reflect.DeepEqual(files, want) {
		t.Errorf("got %+v, %v; want %+v", files, err, want)
	}
}

func TestListErrorsNameThePath(t *testing.T) {
	root := tree(t, map[string]string{"in/a.txt": "", "in/_x": "", "locked/b.txt": ""})
	if err := os.Mkdir(filepath.Join(root, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pattern string
		is      error
	}{
		{root + "/missing", fs.ErrNotExist},
		{root + "/in/*.csv", splits.ErrNoMatch},
		{root + "/empty", splits.ErrNoMatch},
		{root + "/in/_*x/nothing", splits.ErrNoMatch},
	} {
		_, err := Lister{}.List(context.Background(), c.pattern, 10)
		if !errors.Is(err, c.is) || !strings.HasPrefix(err.Error(), c.pattern+": ") {
			t.Errorf("%s: got %v, want %v naming it", c.pattern, err, c.is)
		}
	}
	locked := filepath.Join(root, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
	if os.Geteuid() == 0 {
		// Run the test binary as another user to see it (docs/data.md).
		t.Skip("root reads any directory: no permission error to see")
	}
	for _, p := range []string{locked, root + "/lock*/b.txt", root + "/locked/*"} {
		_, err := Lister{}.List(context.Background(), p, 10)
		if !errors.Is(err, fs.ErrPermission) || !strings.HasPrefix(err.Error(), locked) || !strings.HasSuffix(err.Error(), ": permission denied") {
			t.Errorf("%s: got %v, want permission denied naming %s", p, err, locked)
		}
	}
}

func TestListRefusesWhatIsNotALocalAbsolutePath(t *testing.T) {
	for _, p := range []string{"hdfs://nn/x", "data/x", "file://x/y", "/x/[", ""} {
		if _, err := (Lister{}).List(context.Background(), p, 10); err == nil {
			t.Errorf("%q: no error", p)
		}
	}
}

func TestListStopsAtTheLimit(t *testing.T) {
	files := map[string]string{}
	for i := range 20 {
		files["d/f"+strconv.Itoa(i)] = ""
	}
	root := tree(t, files)
	for _, p := range []string{root + "/d", root + "/d/*"} {
		if _, err := (Lister{}).List(context.Background(), p, 19); err == nil || !strings.Contains(err.Error(), "more than 19") {
			t.Errorf("%s: got %v, want the limit", p, err)
		}
	}
}

func TestListAllMergesPatternsInPathOrder(t *testing.T) {
	root := tree(t, map[string]string{"a/x": "", "b/y": ""})
	files, err := splits.ListAll(context.Background(), Lister{}, []string{root + "/b", root + "/*/x", root + "/a"}, 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, strings.TrimPrefix(f.Path, root))
	}
	if want := []string{"/a/x", "/b/y"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// BenchmarkList100k lists a directory of 100,000 files, made once.
func BenchmarkList100k(b *testing.B) {
	root := b.TempDir()
	for i := range 100_000 {
		dir := filepath.Join(root, "d"+strconv.Itoa(i%100))
		if i < 100 {
			if err := os.Mkdir(dir, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "part-"+strconv.Itoa(i)), []byte("x"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		files, err := Lister{}.List(context.Background(), root+"/*", 200_000)
		if err != nil || len(files) != 100_000 {
			b.Fatalf("%d files, %v", len(files), err)
		}
	}
}
