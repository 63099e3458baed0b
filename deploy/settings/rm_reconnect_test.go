package settings

import (
	"strings"
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
)

// Hadoop's defaults, its values with or without units, its -1 (for
// ever) and 0 (no waiting), and a value that does not read.
func TestReconnectRMReadsHadoopsKeys(t *testing.T) {
	for _, c := range []struct {
		wait, interval string
		want           RMReconnect
	}{
		{"", "", RMReconnect{Wait: 15 * time.Minute, Interval: 30 * time.Second}},
		{"60000", "500", RMReconnect{Wait: time.Minute, Interval: 500 * time.Millisecond}},
		{"2m", "1s", RMReconnect{Wait: 2 * time.Minute, Interval: time.Second}},
		{"-1", "", RMReconnect{Wait: 1<<63 - 1, Interval: 30 * time.Second}},
		{"0", "", RMReconnect{Wait: 0, Interval: 30 * time.Second}}, // no waiting
	} {
		hconf := hadoopconf.New(hadoopconf.Env{})
		if c.wait != "" {
			hconf.Set("yarn.resourcemanager.connect.max-wait.ms", c.wait)
		}
		if c.interval != "" {
			hconf.Set("yarn.resourcemanager.connect.retry-interval.ms", c.interval)
		}
		if got, err := ReconnectRM(hconf); err != nil || got != c.want {
			t.Errorf("max-wait %q, retry-interval %q: %+v, %v; want %+v", c.wait, c.interval, got, err, c.want)
		}
	}
	hconf := hadoopconf.New(hadoopconf.Env{})
	hconf.Set("yarn.resourcemanager.connect.retry-interval.ms", "soon")
	if _, err := ReconnectRM(hconf); err == nil || !strings.Contains(err.Error(), "yarn.resourcemanager.connect.retry-interval.ms") {
		t.Errorf("retry-interval soon: %v; want an error naming the key", err)
	}
}
