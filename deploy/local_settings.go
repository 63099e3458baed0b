package deploy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// refuseYarnOnlySettings refuses, in local mode, the settings it would
// otherwise ignore: local[N] sets the executor count, and dynamic
// allocation runs on YARN. Only what a source set counts, so defaults never
// trip it.
func refuseYarnOnlySettings(conf *config.Config) error {
	dynamic, err := conf.Bool("spindle.dynamicAllocation.enabled")
	if err != nil {
		return err
	}
	var errs []error
	for _, s := range conf.Settings() {
		if !conf.IsSet(s.Key) {
			continue
		}
		switch {
		case s.Key == "spindle.executor.instances":
			n, err := conf.Int(s.Key)
			if err != nil {
				return err
			}
			errs = append(errs, fmt.Errorf("%s: in local mode --master local[N] sets the executor count: use --master 'local[%d]'", s.Where(), n))
		case s.Key == "spindle.dynamicAllocation.enabled" && !dynamic:
			// Asks for what local mode does anyway.
		case strings.HasPrefix(s.Key, "spindle.dynamicAllocation."):
			errs = append(errs, fmt.Errorf("%s: dynamic allocation runs on YARN (--master yarn); local mode keeps its local[N] executors throughout", s.Where()))
		}
	}
	return errors.Join(errs...)
}
