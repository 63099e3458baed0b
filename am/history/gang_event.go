package history

import "time"

// A gang stage's runs: each launch of all its ranks (GangStarted), and
// each try at acquiring their slots that timed out (GangTimedOut). What
// ended a run is read off its ranks' ends (gang.go).

// GangStarted is a gang stage's ranks launched together, meeting at
// MasterAddr:MasterPort (the rendezvous variables their tasks got).
type GangStarted struct {
	Stage      int64  `json:"stage"`
	MasterAddr string `json:"masterAddr"`
	MasterPort int    `json:"masterPort"`
}

// GangTimedOut is a gang stage's try at acquiring its slots that timed
// out: Message is the scheduler's (how many of its tasks it could
// place, in how long); Soft, it runs as an ordinary stage from then on.
type GangTimedOut struct {
	Stage   int64  `json:"stage"`
	Try     int    `json:"try"`
	Message string `json:"message"`
	Soft    bool   `json:"soft,omitempty"`
}

// GangRestart is one restart of a gang: when, and why ("rank 2 exited
// 1", "timed out waiting: ..."); for a rank's end, that rank's attempt
// and where its files are (as a TaskView names them).
type GangRestart struct {
	Time     time.Time `json:"t"`
	Reason   string    `json:"reason"`
	Rank     int       `json:"rank,omitempty"`
	Attempt  int       `json:"attempt,omitempty"`
	Executor string    `json:"executor,omitempty"`
	File     string    `json:"file,omitempty"`
	LogURL   string    `json:"logUrl,omitempty"`
}

// GangState is a gang stage's runs as a snapshot was taken.
type GangState struct {
	Stage      int64         `json:"stage"`
	Runs       int           `json:"runs"`
	MasterAddr string        `json:"masterAddr,omitempty"`
	MasterPort int           `json:"masterPort,omitempty"`
	Restarts   []GangRestart `json:"restarts,omitempty"`
	// Forgotten counts the restarts before Restarts, dropped beyond
	// maxGangRestarts.
	Forgotten int `json:"forgotten,omitempty"`
	// Ended is what ended its last run, while no other has started.
	Ended *GangRestart `json:"ended,omitempty"`
	// RunStarted is when its last run started, Unix milliseconds: the
	// attempts started since are that run's.
	RunStarted int64 `json:"runStarted,omitempty"`
}
