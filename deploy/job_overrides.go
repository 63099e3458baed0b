package deploy

import (
	"fmt"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
)

// overrideJob gives job the name and pool its configuration sets (--name
// and --pool stand for those keys): they win over the spec's own, as
// spark-submit's --name does. The AM, shipped the spec file, applies them
// again. An empty value, as for every string key, sets nothing.
func overrideJob(job *jobspec.Job, conf *config.Config) error {
	for _, o := range []struct {
		key   string
		field *string
	}{{"spindle.app.name", &job.Name}, {"spindle.scheduler.pool", &job.Pool}} {
		v, err := conf.String(o.key)
		if err != nil {
			return err
		}
		if v == "" {
			continue
		}
		if err := jobspec.CheckName(v); err != nil {
			return fmt.Errorf("%s: %w", conf.Setting(o.key).Where(), err)
		}
		*o.field = v
	}
	return nil
}
