package settings

import (
	"fmt"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
)

// OverrideJob gives job the name and pool its configuration sets (--name
// and --pool stand for those keys): they win over the spec's own, as
// spark-submit's --name does. The AM, shipped the spec file, applies them
// again. An empty value, as for every string key, sets nothing.
func OverrideJob(job *jobspec.Job, conf *config.Config) error {
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

// JobDefaults are what a job spec's stages get for what they leave out.
func JobDefaults(conf *config.Config) (jobspec.Defaults, error) {
	s := Read(conf)
	d := jobspec.Defaults{CPUs: s.Int("spindle.task.cpus"), GPUs: s.Float("spindle.task.resource.gpu.amount"), MaxAttempts: s.Int("spindle.task.maxFailures")}
	return d, s.Err()
}
