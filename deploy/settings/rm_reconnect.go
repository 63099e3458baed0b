package settings

import (
	"time"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
)

// RMReconnect is how an ApplicationMaster rides out a ResourceManager it
// cannot reach (restarting, failing over, cut off): Hadoop's own keys,
// which Hadoop's AM client and NodeManagers honor, from the cluster's
// yarn-site.xml.
type RMReconnect struct {
	// Wait is how long it keeps trying
	// (yarn.resourcemanager.connect.max-wait.ms, 15 minutes; -1 in
	// Hadoop, for ever, reads as the longest duration).
	Wait time.Duration
	// Interval is the pause between tries
	// (yarn.resourcemanager.connect.retry-interval.ms, 30 s).
	Interval time.Duration
}

// ReconnectRM reads RMReconnect.
func ReconnectRM(hconf *hadoopconf.Conf) (RMReconnect, error) {
	wait, err := hconf.GetDuration("yarn.resourcemanager.connect.max-wait.ms", 15*time.Minute, time.Millisecond)
	if err != nil {
		return RMReconnect{}, err
	}
	if wait < 0 {
		wait = time.Duration(1<<63 - 1)
	}
	interval, err := hconf.GetDuration("yarn.resourcemanager.connect.retry-interval.ms", 30*time.Second, time.Millisecond)
	return RMReconnect{Wait: wait, Interval: interval}, err
}
