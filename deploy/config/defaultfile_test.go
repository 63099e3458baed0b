package config

import (
	"os"
	"path/filepath"
	"testing"
)

func writeFile(path, text string) error { return os.WriteFile(path, []byte(text), 0o644) }

func TestDefaultPropertiesFile(t *testing.T) {
	withFile, empty, dirNamed := t.TempDir(), t.TempDir(), t.TempDir()
	if err := writeFile(filepath.Join(withFile, "spindle-defaults.conf"), ""); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dirNamed, "spindle-defaults.conf"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"present", map[string]string{"SPINDLE_CONF_DIR": withFile}, filepath.Join(withFile, "spindle-defaults.conf")},
		{"unset", map[string]string{}, ""},
		{"empty", map[string]string{"SPINDLE_CONF_DIR": ""}, ""},
		{"no file there", map[string]string{"SPINDLE_CONF_DIR": empty}, ""},
		{"a directory, not a file", map[string]string{"SPINDLE_CONF_DIR": dirNamed}, ""},
		{"only Spark's variable", map[string]string{"SPARK_CONF_DIR": withFile}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lookup := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
			got, ok := DefaultPropertiesFile(lookup)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("DefaultPropertiesFile = %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
}
