package config

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// namedKey is a spindle.* name as prose and examples write it: a key, a
// family's member (spindle.executorEnv.NAME), or a group (spindle.yarn.*);
// not a longer name that holds one (an extended attribute
// user.spindle.segment...).
var namedKey = regexp.MustCompile(`(?:^|[^A-Za-z0-9_.])(spindle\.[A-Za-z0-9_.*-]*[A-Za-z0-9_*])`)

// notKeys are spindle.* names in the docs that name something else.
var notKeys = map[string]string{
	"spindle.hadoop.*": "the generated protobuf packages (docs/yarnpb.md)",
}

// Every spindle.* key that README.md, docs/ and examples/ name is one the
// configuration knows (or a family or group of known keys): a key renamed
// or removed in code cannot live on in a page or an example file, where
// a user copying it would get an error, or a setting that does nothing.
func TestKeysNamedInDocsAndExamplesExist(t *testing.T) {
	root := filepath.Join("..", "..")
	files := []string{filepath.Join(root, "README.md")}
	for _, dir := range []string{"docs", "examples"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range namedKey.FindAllStringSubmatch(line, -1) {
				name := m[1]
				checked++
				if _, ok := notKeys[name]; ok || knownName(name) {
					continue
				}
				t.Errorf("%s:%d: %s is no configuration key", f, i+1, name)
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d names checked: the pages moved?", checked)
	}
}

// knownName says whether name is a registry key, a family's member, or a
// group: a prefix (spindle.session.taskLogs, spindle.yarn.*) of known keys
// or of a family's prefix.
func knownName(name string) bool {
	if _, ok := keyFor(name); ok {
		return true
	}
	group := strings.TrimSuffix(strings.TrimSuffix(name, "*"), ".") + "."
	for _, k := range registry {
		if strings.HasPrefix(k.Name, group) {
			return true
		}
	}
	for _, f := range families {
		if strings.HasPrefix(f.Prefix, group) {
			return true
		}
	}
	return false
}

// Every example properties file loads: its keys exist and its values
// parse and pass their checks.
func TestExamplePropertiesFilesLoad(t *testing.T) {
	confs, err := filepath.Glob(filepath.Join("..", "..", "examples", "*", "*.conf"))
	if err != nil || len(confs) == 0 {
		t.Fatalf("no example properties files: %v", err)
	}
	for _, f := range confs {
		if _, err := LoadFiles([]string{f}, nil); err != nil {
			t.Error(err) // it names the file and line
		}
	}
}

// namedDefault is a key in backquotes followed by a value in brackets, as
// the pages give a default: `spindle.log.maxFiles` (4), or within
// spindle.dynamicAllocation, `rampDownDelay` (5s); or a row of a table
// whose second column is the default: | `spindle.session.maxRunningJobs` | 10,000 |.
var namedDefault = regexp.MustCompile("`((?:spindle\\.)?[A-Za-z0-9_.-]+)`(?:\\s+\\(([^);,]+)| \\| ([^|]+) \\|)")

// proseValue is a value as prose writes it, as the configuration reads
// it: "15 s" is 15s, "7 days" 7d, "4,000,000" 4000000.
func proseValue(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), ",", "")
	s = regexp.MustCompile(`^(\d+) days?$`).ReplaceAllString(s, "${1}d")
	return regexp.MustCompile(`^(\d+) ([a-z]+)$`).ReplaceAllString(s, "$1$2")
}

// A default that the pages give beside a key is the key's default: read
// by the key's kind, it equals the registry's. Brackets that hold no value
// of the key's kind (a remark, "or ownership") are not defaults.
func TestDefaultsTheDocsGiveAreTheDefaults(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages: %v", err)
	}
	pages = append(pages, filepath.Join("..", "..", "README.md"))
	checked := 0
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range namedDefault.FindAllStringSubmatch(string(b), -1) {
			name, said := m[1], m[2]+m[3]
			if !strings.HasPrefix(name, "spindle.") {
				name = "spindle.dynamicAllocation." + name
			}
			k, ok := byName[name]
			if !ok || k.Kind == KindString || k.Default == "" {
				continue
			}
			v, err := k.parseKind(proseValue(said))
			if err != nil {
				continue
			}
			def, err := k.parseKind(k.Default)
			if err != nil {
				t.Fatalf("%s: default %q: %v", name, k.Default, err)
			}
			checked++
			if v != def {
				t.Errorf("%s: %s is said to default to %q; its default is %q", filepath.Base(p), name, said, k.Default)
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d defaults checked: the pages moved?", checked)
	}
}
