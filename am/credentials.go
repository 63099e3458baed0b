package am

import (
	"github.com/spindle-yarn/spindle/executor/wire"
)

// freshCredentials carries delegation tokens fetched while the
// application runs: forTasks (tokens only) to every executor, and
// forContainers (the tokens and the application secret) into the launch
// context of executors started from now on.
type freshCredentials struct {
	forTasks, forContainers []byte
}

// UpdateCredentials hands the loop fresh delegation tokens, as credentials
// files: forTasks holds tokens only, for the tasks of running executors;
// forContainers adds the application secret, for new containers. An
// executor that registers later gets forTasks too, since its container may
// have started with the old ones.
func (d *Driver) UpdateCredentials(forTasks, forContainers []byte) {
	d.send(freshCredentials{forTasks: forTasks, forContainers: forContainers})
}

func (d *Driver) updateCredentials(ev freshCredentials) {
	d.credentials = ev.forTasks
	if d.rm != nil {
		d.rm.y.Launcher.SetTokens(ev.forContainers)
	}
	for _, conn := range d.conns {
		conn.Send(credentialsMessage(ev.forTasks))
	}
	d.log.WithField("executors", len(d.conns)).Info("sent fresh delegation tokens to the executors")
}

func credentialsMessage(file []byte) *wire.Envelope {
	return &wire.Envelope{Message: &wire.Envelope_Credentials{Credentials: &wire.Credentials{File: file}}}
}
