package appmaster

import (
	"fmt"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// rmMaxAttemptsKey caps every application's attempts at the RM; YARN's
// default is 2.
const rmMaxAttemptsKey = "yarn.resourcemanager.am.max-attempts"

// lastAttempt says whether the AM's own attempt (from its container id) is
// the application's last: YARN starts no other after it. The application
// asked for spindle.yarn.maxAppAttempts, which the RM caps at
// yarn.resourcemanager.am.max-attempts, read from the Hadoop
// configuration the submitter shipped (YARN's default, 2, where it does
// not say). Whatever cannot be read makes this attempt the last: a
// termination then unregisters, as before, rather than leave an
// application that no attempt will follow.
func lastAttempt(conf *config.Config, hconf *hadoopconf.Conf, containerID string) (bool, string, error) {
	id, err := yarn.ParseContainerID(containerID)
	if err != nil {
		return true, "", fmt.Errorf("CONTAINER_ID: %w", err)
	}
	attempt := int(id.GetAppAttemptId().GetAttemptId())
	asked, err := conf.Int("spindle.yarn.maxAppAttempts")
	if err != nil {
		return true, "", err
	}
	capped, err := hconf.GetInt(rmMaxAttemptsKey, 2)
	if err != nil {
		return true, "", err
	}
	most := min(asked, capped)
	return attempt >= most, fmt.Sprintf("attempt %d of at most %d", attempt, most), nil
}
