package settings

import (
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/internal/logroll"
)

// LogRolling is spindle.log.maxBytes and spindle.log.maxFiles.
func LogRolling(conf *config.Config) (logroll.Options, error) {
	s := Read(conf)
	o := logroll.Options{MaxBytes: s.Bytes("spindle.log.maxBytes"), Keep: s.Int("spindle.log.maxFiles")}
	return o, s.Err()
}
