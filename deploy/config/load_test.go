package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// loadText loads one properties file named test.conf, then overrides.
func loadText(text string, overrides ...string) (*Config, error) {
	return Load([]PropertiesFile{{Name: "test.conf", Text: strings.NewReader(text)}}, overrides)
}

func mustLoad(t *testing.T, text string, overrides ...string) *Config {
	t.Helper()
	c, err := loadText(text, overrides...)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return c
}

func TestLoadPrecedenceAndAliases(t *testing.T) {
	tests := []struct {
		name      string
		files     []string // each file's text, loaded in order
		overrides []string
		key       string
		want      string
		source    Source
		setAs     string
	}{
		{name: "default", key: "spindle.task.cpus", want: "1"},
		{name: "file", files: []string{"spindle.task.cpus 2"}, key: "spindle.task.cpus", want: "2",
			source: Source{File: "f0", Line: 1}, setAs: "spindle.task.cpus"},
		{name: "spark alias", files: []string{"\nspark.task.cpus=3"}, key: "spindle.task.cpus", want: "3",
			source: Source{File: "f0", Line: 2}, setAs: "spark.task.cpus"},
		{name: "later line in a file wins", files: []string{"spindle.task.cpus 2\nspindle.task.cpus 5"},
			key: "spindle.task.cpus", want: "5", source: Source{File: "f0", Line: 2}, setAs: "spindle.task.cpus"},
		{name: "spellings agreeing in one file keep the spindle line",
			files: []string{"spindle.task.cpus 2\nspark.task.cpus 2"},
			key:   "spindle.task.cpus", want: "2", source: Source{File: "f0", Line: 1}, setAs: "spindle.task.cpus"},
		{name: "agreement is by value, not text",
			files: []string{"spark.executor.memory 1024m\nspindle.executor.memory 1g"},
			key:   "spindle.executor.memory", want: "1g", source: Source{File: "f0", Line: 2}, setAs: "spindle.executor.memory"},
		{name: "later file wins", files: []string{"spindle.task.cpus 2", "spindle.task.cpus 3"},
			key: "spindle.task.cpus", want: "3", source: Source{File: "f1", Line: 1}, setAs: "spindle.task.cpus"},
		{name: "later file wins whatever the spelling", files: []string{"spindle.task.cpus 2", "spark.task.cpus 3"},
			key: "spindle.task.cpus", want: "3", source: Source{File: "f1", Line: 1}, setAs: "spark.task.cpus"},
		{name: "--conf wins over the file", files: []string{"spindle.task.cpus 2"},
			overrides: []string{"spark.task.cpus=6"},
			key:       "spindle.task.cpus", want: "6", source: Source{File: "--conf", Line: 0}, setAs: "spark.task.cpus"},
		{name: "later --conf wins", overrides: []string{"spindle.task.cpus=6", "spindle.task.cpus=7"},
			key: "spindle.task.cpus", want: "7", source: Source{File: "--conf", Line: 0}, setAs: "spindle.task.cpus"},
		{name: "--conf splits at the first =", overrides: []string{"spindle.yarn.queue=a=b"},
			key: "spindle.yarn.queue", want: "a=b", source: Source{File: "--conf", Line: 0}, setAs: "spindle.yarn.queue"},
		{name: "--conf may set an empty value", overrides: []string{"spindle.yarn.executor.nodeLabelExpression="},
			key: "spindle.yarn.executor.nodeLabelExpression", want: "", source: Source{File: "--conf", Line: 0},
			setAs: "spindle.yarn.executor.nodeLabelExpression"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var files []PropertiesFile
			for i, text := range tt.files {
				files = append(files, PropertiesFile{Name: "f" + string(rune('0'+i)), Text: strings.NewReader(text)})
			}
			c, err := Load(files, tt.overrides)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			i := slices.IndexFunc(c.Settings(), func(s Setting) bool { return s.Key == tt.key })
			got := c.Settings()[i]
			want := Setting{Key: tt.key, Value: tt.want, Source: tt.source, SetAs: tt.setAs}
			if got != want {
				t.Errorf("got %+v\nwant %+v", got, want)
			}
			if c.Source(tt.key) != tt.source {
				t.Errorf("Source = %v, want %v", c.Source(tt.key), tt.source)
			}
		})
	}
}

func TestLoadErrorsNameTheirSource(t *testing.T) {
	tests := []struct {
		name      string
		text      string
		overrides []string
		want      []string // each must appear in the error
	}{
		{name: "unknown spindle key with a typo", text: "# c\nspindle.executor.memroy 4g",
			want: []string{`test.conf:2: unknown key "spindle.executor.memroy"; did you mean spindle.executor.memory?`}},
		{name: "unknown spindle key in the wrong case", text: "spindle.Executor.Memory 4g",
			want: []string{"test.conf:1:", "did you mean spindle.executor.memory? (keys are case-sensitive)"}},
		{name: "unknown spindle key far from any", text: "spindle.frobnicate 1",
			want: []string{`test.conf:1: unknown key "spindle.frobnicate"`}},
		{name: "other prefix", text: "hadoop.tmp.dir /tmp",
			want: []string{`test.conf:1: key "hadoop.tmp.dir" is not a Spindle key: keys start with spindle.`}},
		{name: "other prefix near a key", text: "spindel.master yarn",
			want: []string{"test.conf:1:", "did you mean spindle.master?"}},
		{name: "prefix missing", text: "executor.memory 4g",
			want: []string{"test.conf:1:", "did you mean spindle.executor.memory?"}},
		{name: "empty key", text: "=4g", want: []string{"test.conf:1: a value with no key"}},
		{name: "spellings disagree in one file", text: "spindle.task.cpus 2\n\nspark.task.cpus=4",
			want: []string{`test.conf:1: spindle.task.cpus="2" and test.conf:3: spark.task.cpus="4" set spindle.task.cpus to different values`}},
		{name: "spellings disagree in --conf", overrides: []string{"spark.task.cpus=4", "spindle.task.cpus=2"},
			want: []string{`--conf: spark.task.cpus="4" and --conf: spindle.task.cpus="2" set spindle.task.cpus`}},
		{name: "--conf without =", overrides: []string{"spindle.task.cpus"},
			want: []string{`--conf "spindle.task.cpus": want KEY=VALUE`}},
		{name: "--conf unknown key", overrides: []string{"spindle.task.cpu=2"},
			want: []string{`--conf: unknown key "spindle.task.cpu"; did you mean spindle.task.cpus?`}},
		{name: "--conf bad value", overrides: []string{"spindle.task.cpus=two"},
			want: []string{`--conf: spindle.task.cpus="two": not a whole number`}},
		{name: "bad value through an alias", text: "spark.executor.memory 4x",
			want: []string{`test.conf:1: spark.executor.memory (spindle.executor.memory)="4x": unknown size unit "x"`}},
		{name: "bad value overridden later is still an error", text: "spindle.task.cpus two",
			overrides: []string{"spindle.task.cpus=2"},
			want:      []string{`test.conf:1: spindle.task.cpus="two"`}},
		{name: "bad value replaced by a later line is still an error", text: "spindle.task.cpus two\nspindle.task.cpus 2",
			want: []string{`test.conf:1: spindle.task.cpus="two"`}},
		{name: "every error reported", text: "spindle.a 1\nspindle.task.cpus x\nfoo bar",
			want: []string{"test.conf:1:", "test.conf:2:", "test.conf:3:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := loadText(tt.text, tt.overrides...)
			if err == nil {
				t.Fatalf("Load succeeded with settings %v", c.Settings())
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error:\n%v\nwant it to contain:\n%s", err, w)
				}
			}
		})
	}
}

func TestLoadReportsAtMostMaxErrors(t *testing.T) {
	_, err := loadText(strings.Repeat("spindle.nope 1\n", maxErrors+5))
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != maxErrors+1 || lines[maxErrors] != "and 5 more errors" {
		t.Errorf("got %d lines ending %q, want %d and a count", len(lines), lines[len(lines)-1], maxErrors+1)
	}
}

func TestLoadCollectsUnknownSparkKeys(t *testing.T) {
	c := mustLoad(t, "spark.sql.shuffle.partitions 200\nspark.serializer x\nspark.executor.memory 2g",
		"spark.sql.shuffle.partitions=10", "spark.ui.showConsoleProgress=false")
	want := []string{"spark.serializer", "spark.sql.shuffle.partitions", "spark.ui.showConsoleProgress"}
	if got := c.IgnoredSparkKeys(); !slices.Equal(got, want) {
		t.Errorf("IgnoredSparkKeys = %q, want %q", got, want)
	}
	if got, _ := c.SizeMiB("spindle.executor.memory"); got != 2048 {
		t.Errorf("spindle.executor.memory = %d MiB, want 2048 via its spark.* alias", got)
	}
}

func TestLoadFiles(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/spindle-defaults.conf"
	if err := writeFile(path, "spindle.master yarn\n"); err != nil {
		t.Fatal(err)
	}
	c, err := LoadFiles([]string{path}, []string{"spindle.yarn.queue=gpu"})
	if err != nil {
		t.Fatalf("LoadFiles: %v", err)
	}
	if got := c.Source("spindle.master"); got != (Source{File: path, Line: 1}) {
		t.Errorf("source of spindle.master = %v, want %s:1", got, path)
	}
	_, err = LoadFiles([]string{path, dir + "/missing.conf"}, nil)
	if err == nil || !strings.Contains(err.Error(), "missing.conf") {
		t.Errorf("missing file: err = %v, want one naming it", err)
	}
}

func TestLoadReadErrorNamesFile(t *testing.T) {
	_, err := Load([]PropertiesFile{{Name: "broken.conf", Text: failingReader{}}}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "broken.conf: ") {
		t.Errorf("err = %v, want one starting with the file's name", err)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }
