package settings

import (
	"bytes"
	"fmt"
	"os"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// WriteFile writes conf's settings to path (0600), as a properties
// file config.LoadFiles reads back: how a process Spindle starts (an AM,
// a local session's driver) gets the settings it was started with. over
// replaces some keys' values.
func WriteFile(path string, conf *config.Config, over map[string]string) error {
	var props bytes.Buffer
	for _, st := range conf.Settings() {
		if v, ok := over[st.Key]; ok {
			st.Value = v
		}
		fmt.Fprintf(&props, "%s=%s\n", st.Key, st.Value)
	}
	return os.WriteFile(path, props.Bytes(), 0o600)
}

// ReadFile reads a settings file WriteFile wrote.
func ReadFile(path string) (*config.Config, error) {
	return config.LoadFiles([]string{path}, nil)
}
