package am

import (
	"testing"
	"time"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// A followed job's last update carries its summary's cut output files:
// those named, and how many more.
func TestFollowersHearOfCutFilesNotListed(t *testing.T) {
	d, err := New(Config{Core: core.Config{Session: true, Profiles: []scheduler.Profile{{Cores: 1}}}, Executors: listen(t, testSecret), Clients: listen(t, sessionSecret)})
	if err != nil {
		t.Fatal(err)
	}
	f := &follower{job: 7, updates: make(chan *wire.JobUpdate, 1), final: make(chan *wire.JobUpdate, 1), gone: make(chan struct{})}
	d.followers = []*follower{f}
	d.updateFollowers(time.Now(), []core.Summary{{ID: 7, OutputCut: []string{"e1/x.stdout"}, OutputCutMore: 41}})
	u := <-f.final
	if !u.GetEnded() || len(u.GetOutputCut()) != 1 || u.GetOutputCutMore() != 41 {
		t.Errorf("last update %v: want it ended, 1 cut file named, 41 more", u)
	}
}
