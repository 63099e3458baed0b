package settings

import (
	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/deploy/config"
)

// EnvironmentVariables are the variables that choose where a driver's
// settings come from; the environment page lists them after the keys,
// their source "environment".
var EnvironmentVariables = []string{"SPINDLE_CONF_DIR", "HADOOP_CONF_DIR"}

// Environment is the application's effective settings as its
// environment page shows them (docs/ui.md): every key's value and where
// it came from (conf.Origin: on YARN and in a local session, the
// submitter's source, carried in the settings file), then
// EnvironmentVariables as lookupEnv finds them; each value redacted
// where it may hold a secret (Redact).
func Environment(conf *config.Config, lookupEnv func(string) (string, bool)) []history.Setting {
	var out []history.Setting
	add := func(key, value, source string) {
		shown, redacted := Redact(key, value)
		out = append(out, history.Setting{Key: key, Value: shown, Source: source, Redacted: redacted})
	}
	for _, st := range conf.Settings() {
		add(st.Key, st.Value, conf.Origin(st.Key))
	}
	for _, name := range EnvironmentVariables {
		if v, ok := lookupEnv(name); ok {
			add(name, v, "environment")
		}
	}
	return out
}
