package config

import (
	"strings"
	"testing"
)

// Under Spindle's policy executorIdleTimeout acts up to surplusIdleTimeout
// and is refused past it, naming the key that acts; under Spark's policy,
// with dynamic allocation off, or left at its default, any value goes.
func TestExecutorIdleTimeoutIsRefusedWhereItWouldNotAct(t *testing.T) {
	const k = "spindle.dynamicAllocation."
	on := k + "enabled=true"
	for _, c := range []struct {
		settings []string
		refused  bool
	}{
		{[]string{on, k + "executorIdleTimeout=15s"}, false},    // at the default surplusIdleTimeout
		{[]string{on, k + "executorIdleTimeout=15001ms"}, true}, // a millisecond past it
		{[]string{on, k + "executorIdleTimeout=10s"}, false},
		{[]string{on, k + "executorIdleTimeout=20s", k + "surplusIdleTimeout=20s"}, false},
		{[]string{on, k + "executorIdleTimeout=20s", k + "surplusIdleTimeout=19s"}, true},
		{[]string{on, "spark.dynamicAllocation.executorIdleTimeout=120s"}, true},
		{[]string{on, k + "executorIdleTimeout=120s", k + "policy=spark"}, false},
		{[]string{k + "executorIdleTimeout=120s"}, false}, // dynamic allocation off
		{[]string{on}, false}, // the default, 60s, is no one's promise
	} {
		_, err := Load(nil, c.settings)
		if (err != nil) != c.refused {
			t.Errorf("%q: error %v, want refused %v", c.settings, err, c.refused)
			continue
		}
		if err != nil && !strings.Contains(err.Error(), "raise "+k+"surplusIdleTimeout instead") {
			t.Errorf("%q: %v: the message does not name the key that acts", c.settings, err)
		}
	}
	_, err := Load(nil, []string{on, "spark.dynamicAllocation.executorIdleTimeout=120s"})
	want := `--conf: spark.dynamicAllocation.executorIdleTimeout (spindle.dynamicAllocation.executorIdleTimeout)="120s": longer than spindle.dynamicAllocation.surplusIdleTimeout (15s), it would do nothing`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v\nwant it to begin %s", err, want)
	}
}
