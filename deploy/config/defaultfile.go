package config

import (
	"os"
	"path/filepath"
)

// DefaultPropertiesFile is $SPINDLE_CONF_DIR/spindle-defaults.conf when that
// is a regular file, as Spark looks for $SPARK_CONF_DIR/spark-defaults.conf.
// lookupEnv is os.LookupEnv outside tests. A missing file is no error: the
// defaults file is optional.
func DefaultPropertiesFile(lookupEnv func(string) (string, bool)) (path string, ok bool) {
	dir, ok := lookupEnv("SPINDLE_CONF_DIR")
	if !ok || dir == "" {
		return "", false
	}
	path = filepath.Join(dir, "spindle-defaults.conf")
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return "", false
	}
	return path, true
}
