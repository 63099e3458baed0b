package deploy

import (
	"os"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// loadConfig reads the properties file (--properties-file, else
// $SPINDLE_CONF_DIR/spindle-defaults.conf if present), the --conf
// overrides and the flags that stand for keys.
func loadConfig(propertiesFile string, overrides []string, flags ...config.Flag) (*config.Config, error) {
	var files []string
	if propertiesFile != "" {
		files = append(files, propertiesFile)
	} else if p, ok := config.DefaultPropertiesFile(os.LookupEnv); ok {
		files = append(files, p)
	}
	return config.LoadFiles(files, overrides, flags...)
}
