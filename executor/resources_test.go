package executor

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestParseDiscoveryOutput(t *testing.T) {
	got, err := parseDiscoveryOutput([]byte(`{"name":"gpu","addresses":["0","1"]}`), gpuResource)
	if err != nil || !slices.Equal(got, []string{"0", "1"}) {
		t.Fatalf("got %q, %v", got, err)
	}
	got, err = parseDiscoveryOutput([]byte(` {"addresses":[],"name":"gpu"}`+"\n"), gpuResource)
	if err != nil || len(got) != 0 {
		t.Fatalf("no GPUs: got %q, %v", got, err)
	}
	for in, want := range map[string]string{
		`{"addresses":["0"]}`:                  `no "name" field`,
		`{"name":"gpu"}`:                       `no "addresses" field`,
		`{"name":"gpu","addresses":null}`:      `no "addresses" field`,
		`{"name":"fpga","addresses":["0"]}`:    `reported resource "fpga", want "gpu"`,
		`[{"name":"gpu","addresses":["0"]}]`:   "want JSON",
		`{"name":"gpu","addresses":"0,1"}`:     "want JSON",
		`{"name":"gpu","addresses":["0"]} xyz`: "want JSON",
		``:                                     "want JSON",
	} {
		_, err := parseDiscoveryOutput([]byte(in), gpuResource)
		if err == nil || !contains(err.Error(), want) {
			t.Errorf("parseDiscoveryOutput(%q) error = %v; want %q", in, err, want)
		}
	}
}

func TestParseResourcesFile(t *testing.T) {
	const file = `[
		{"id":{"componentName":"spark.worker","resourceName":"fpga"},"addresses":["f0"]},
		{"id":{"componentName":"spark.worker","resourceName":"gpu"},"addresses":["0","1"]},
		{"id":{"componentName":"spindle.executor","resourceName":"gpu"},"addresses":["GPU-1"]}]`
	got, err := parseResourcesFile([]byte(file), workerComponents, gpuResource)
	if err != nil || !slices.Equal(got, []string{"0", "1"}) {
		t.Fatalf("worker: got %q, %v", got, err)
	}
	got, err = parseResourcesFile([]byte(file), executorComponents, gpuResource)
	if err != nil || !slices.Equal(got, []string{"GPU-1"}) {
		t.Fatalf("executor: got %q, %v", got, err)
	}
	got, err = parseResourcesFile([]byte(`[]`), workerComponents, gpuResource)
	if err != nil || got != nil {
		t.Fatalf("empty: got %q, %v", got, err)
	}
	for in, want := range map[string]string{
		`{"id":{"componentName":"spark.worker","resourceName":"gpu"},"addresses":["0"]}`: "want a JSON array",
		`[{"addresses":["0"]}]`: "entry 0 has no id",
		`[{"id":{"componentName":"spark.worker"},"addresses":["0"]}]`:    "entry 0 has no id",
		`[{"id":{"componentName":"spark.worker","resourceName":"gpu"}}]`: `entry 0 (spark.worker gpu) has no "addresses"`,
		`[{"id":{"componentName":"spark.worker","resourceName":"gpu"},"addresses":["0"]},
		  {"id":{"componentName":"spindle.worker","resourceName":"gpu"},"addresses":["1"]}]`: "entries 0 and 1 both give spark.worker gpu addresses",
		`[{"id":{"componentName":"spark.worker","resourceName":"gpu"},"addresses":[1]}]`: "want a JSON array",
	} {
		_, err := parseResourcesFile([]byte(in), workerComponents, gpuResource)
		if err == nil || !contains(err.Error(), want) {
			t.Errorf("parseResourcesFile(%q) error = %v; want %q", in, err, want)
		}
	}
}

func TestReadResourcesFileBounds(t *testing.T) {
	big := writeFile(t, "big.json", "["+string(make([]byte, maxResourcesJSON))+"]", 0o644)
	_, err := readResourcesFile(big, workerComponents, gpuResource)
	wantErr(t, err, big, "larger than 1048576 bytes")
	dup := writeFile(t, "dup.json", `[{"id":{"componentName":"spark.worker","resourceName":"gpu"},"addresses":["0","0"]}]`, 0o644)
	_, err = readResourcesFile(dup, workerComponents, gpuResource)
	wantErr(t, err, "resources file "+dup, `"0" is listed twice`)
}

func TestWriteTaskResourcesFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs", "task-3")
	for _, c := range []struct {
		gpus []string
		want string
	}{
		{[]string{"1"}, `{"gpu":{"name":"gpu","addresses":["1"]}}`},
		{[]string{"GPU-aa", "GPU-bb"}, `{"gpu":{"name":"gpu","addresses":["GPU-aa","GPU-bb"]}}`},
		{nil, `{}`},
	} {
		path := filepath.Join(dir, "resources.json")
		if err := WriteTaskResourcesFile(path, c.gpus, nil); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil || string(data) != c.want {
			t.Errorf("gpus %q: file = %s, %v; want %s", c.gpus, data, err, c.want)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
			t.Errorf("mode %v, want 0644", fi.Mode().Perm())
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d files, want only the resources file", len(entries))
	}
}
