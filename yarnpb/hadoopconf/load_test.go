package hadoopconf

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func envMap(vars map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) { v, ok := vars[name]; return v, ok }
}

func TestLoadCluster(t *testing.T) {
	env := Env{System: map[string]string{"user.name": "alice"}}
	c, err := Load(env, filepath.Join("testdata", "cluster"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"fs.defaultFS":                        "hdfs://nn.example.com:8020", // final in core-site.xml
		"spindle.test.overridden":             "yarn",                       // yarn-site.xml is read last
		"spindle.test.short":                  "short-form",
		"spindle.test.empty":                  "core", // an empty <value/> overrides nothing
		"dfs.replication":                     "2",
		"yarn.resourcemanager.webapp.address": "rm.example.com:18088",
		"spindle.test.staging":                "/tmp/hadoop-alice/staging",
	}
	for k, v := range want {
		if got, _ := c.Get(k); got != v {
			t.Errorf("Get(%s) = %q, want %q", k, got, v)
		}
	}
	if _, ok := c.Get("spindle.test.closed"); ok {
		t.Error("a final key without value was opened by a later file")
	}
	var ignored []string
	for _, o := range c.IgnoredOverrides() {
		ignored = append(ignored, o.Key+"@"+filepath.Base(o.At.File))
	}
	if w := []string{"fs.defaultFS@hdfs-site.xml", "spindle.test.closed@yarn-site.xml"}; !reflect.DeepEqual(ignored, w) {
		t.Errorf("ignored overrides %v, want %v", ignored, w)
	}
	var names []string
	for _, r := range c.Resources() {
		names = append(names, filepath.Base(r))
	}
	if w := []string{"core-site.xml", "hdfs-site.xml", "yarn-site.xml"}; !reflect.DeepEqual(names, w) {
		t.Errorf("resources %v, want %v", names, w)
	}
	rms, err := c.RMAddresses(RMSchedulerAddress)
	if err != nil || len(rms) != 1 || rms[0].Address != "rm.example.com:8030" {
		t.Errorf("RMAddresses = %+v, %v", rms, err)
	}
	qops, err := c.RPCProtection()
	if err != nil || !reflect.DeepEqual(qops, []string{"auth-conf"}) {
		t.Errorf("RPCProtection = %v, %v", qops, err)
	}
}

func TestFromEnvironment(t *testing.T) {
	cluster := filepath.Join("testdata", "cluster")
	yarnconf := filepath.Join("testdata", "yarnconf")
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "etc", "hadoop"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "etc", "hadoop", "core-site.xml"), []byte(site(prop("spindle.test.overridden", "home"))), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		vars map[string]string
		want string // spindle.test.overridden
		err  string
	}{
		{"HADOOP_CONF_DIR", map[string]string{"HADOOP_CONF_DIR": cluster}, "yarn", ""},
		{"YARN_CONF_DIR after HADOOP_CONF_DIR", map[string]string{"HADOOP_CONF_DIR": cluster, "YARN_CONF_DIR": yarnconf}, "yarn-conf-dir", ""},
		{"YARN_CONF_DIR alone", map[string]string{"YARN_CONF_DIR": yarnconf}, "yarn-conf-dir", ""},
		{"same directory once", map[string]string{"HADOOP_CONF_DIR": cluster, "YARN_CONF_DIR": cluster + "/"}, "yarn", ""},
		{"HADOOP_HOME", map[string]string{"HADOOP_HOME": home}, "home", ""},
		{"HADOOP_CONF_DIR over HADOOP_HOME", map[string]string{"HADOOP_HOME": home, "HADOOP_CONF_DIR": cluster}, "yarn", ""},
		{"nothing set", map[string]string{"HADOOP_CONF_DIR": ""}, "", "none of HADOOP_CONF_DIR, YARN_CONF_DIR or HADOOP_HOME"},
		{"missing directory", map[string]string{"HADOOP_CONF_DIR": "/no/such/dir"}, "", "configuration directory /no/such/dir does not exist (from HADOOP_CONF_DIR)"},
		{"missing HADOOP_HOME conf", map[string]string{"HADOOP_HOME": "/no/home"}, "", "/no/home/etc/hadoop does not exist (from HADOOP_HOME)"},
		{"file, not directory", map[string]string{"YARN_CONF_DIR": filepath.Join(cluster, "core-site.xml")}, "", "is not a directory (from YARN_CONF_DIR)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := FromEnvironment(envMap(tt.vars))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want it to say %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := c.Get("spindle.test.overridden"); got != tt.want {
				t.Errorf("spindle.test.overridden = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFromEnvironmentSubstitutes(t *testing.T) {
	dir := t.TempDir()
	doc := site(prop("k", "${env.SPINDLE_X}:${user.home}"))
	if err := os.WriteFile(filepath.Join(dir, "yarn-site.xml"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := FromEnvironment(envMap(map[string]string{"HADOOP_CONF_DIR": dir, "SPINDLE_X": "x"}))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := c.Get("k"); !strings.HasPrefix(got, "x:") || strings.Contains(got, "${") {
		t.Errorf("Get = %q", got)
	}
}

func TestSystemProperties(t *testing.T) {
	p := SystemProperties(envMap(nil))
	for _, k := range []string{"user.name", "user.home", "user.dir", "java.io.tmpdir", "file.separator"} {
		if p[k] == "" {
			t.Errorf("%s missing from %v", k, p)
		}
	}
}

func TestLoadEmptyDirectory(t *testing.T) {
	c, err := Load(Env{}, t.TempDir())
	if err != nil || len(c.Keys()) != 0 || len(c.Resources()) != 0 {
		t.Fatalf("Load = %v, %v", c, err)
	}
}

func TestLoadErrorsNameFileAndLine(t *testing.T) {
	_, err := Load(Env{}, filepath.Join("testdata", "malformed"))
	var pe *ParseError
	if !errors.As(err, &pe) || filepath.Base(pe.Pos.File) != "core-site.xml" || pe.Pos.Line != 9 {
		t.Fatalf("err = %v, want a ParseError at core-site.xml:9", err)
	}
}

func TestIncludes(t *testing.T) {
	c, err := Load(Env{}, filepath.Join("testdata", "include"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"spindle.test.before":   "included", // the include comes after it
		"spindle.test.after":    "core",     // and before this one
		"spindle.test.nested":   "nested",   // relative to extra/included.xml
		"spindle.test.fallback": "used",     // missing.xml does not exist
	}
	for k, v := range want {
		if got, _ := c.Get(k); got != v {
			t.Errorf("Get(%s) = %q, want %q", k, got, v)
		}
	}
	if pos, _ := c.Source("spindle.test.nested"); filepath.Base(pos.File) != "nested.xml" || pos.Line != 2 {
		t.Errorf("Source(nested) = %v", pos)
	}
	var names []string
	for _, r := range c.Resources() {
		names = append(names, filepath.Base(r))
	}
	if w := []string{"core-site.xml", "included.xml", "nested.xml"}; !reflect.DeepEqual(names, w) {
		t.Errorf("resources %v, want %v", names, w)
	}
}

func TestIncludeErrors(t *testing.T) {
	dir := t.TempDir()
	abs, err := filepath.Abs(filepath.Join("testdata", "include", "extra", "nested.xml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		doc  string
		err  string
	}{
		{"missing without fallback", `<configuration><include href="missing.xml"/></configuration>`, "core-site.xml:1:16: included " + filepath.Join(dir, "missing.xml") + " does not exist, and the include has no fallback"},
		{"remote", `<configuration><include href="http://example.com/x.xml"/></configuration>`, "core-site.xml:1:16: include href \"http://example.com/x.xml\": only local files"},
		{"file URL", `<configuration><include href="file://` + abs + `"/></configuration>`, ""},
		{"absolute path", `<configuration><include href="` + abs + `"/></configuration>`, ""},
		{"relative file URL", `<configuration><include href="file:nested.xml"/></configuration>`, ""},
		{"empty file URL", `<configuration><include href="file://"/></configuration>`, "names no file"},
		{"included file malformed", `<configuration><include href="bad.xml"/></configuration>`, "bad.xml:1"},
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.xml"), []byte("<configuration><property/></configuration>"), 0o644); err != nil {
		t.Fatal(err)
	}
	nested, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "nested.xml"), nested, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "core-site.xml")
			if err := os.WriteFile(path, []byte(tt.doc), 0o644); err != nil {
				t.Fatal(err)
			}
			c := New(Env{})
			err := c.AddFile(path)
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if v, _ := c.Get("spindle.test.nested"); v != "nested" {
					t.Errorf("included value = %q", v)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("err = %v, want it to say %q", err, tt.err)
			}
		})
	}
}

func TestIncludeCycle(t *testing.T) {
	_, err := Load(Env{}, filepath.Join("testdata", "cycle"))
	if err == nil || !strings.Contains(err.Error(), "include cycle") {
		t.Fatalf("err = %v", err)
	}
}

func TestAddFileMissing(t *testing.T) {
	err := New(Env{}).AddFile(filepath.Join(t.TempDir(), "nope.xml"))
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "nope.xml") {
		t.Fatalf("err = %v", err)
	}
}
