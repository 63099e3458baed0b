package history

import "slices"

// Setting is one of the application's effective settings as its
// environment page shows it: a configuration key, or an environment
// variable that chose where the settings came from; its value, redacted
// where it may hold a secret (the driver's shell redacts before the
// event is made, so that no secret reaches the log: docs/ui.md); and
// where it came from ("default", "spindle-defaults.conf:3", "--conf",
// "--master", "environment").
type Setting struct {
	Key      string `json:"key"`
	Value    string `json:"value"`
	Source   string `json:"source"`
	Redacted bool   `json:"redacted,omitempty"`
}

// Environment is the application's settings, as its driver logged them
// when it started; none from a log written before they were.
func (s *Store) Environment() []Setting {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.env)
}
