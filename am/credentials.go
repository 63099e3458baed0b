package am

import (
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
)

// UpdateTokens hands the loop fresh delegation tokens. The loop passes
// them, as a credentials file, to the tasks of every executor, to
// executors that register later (their containers may have started with
// the old ones), and into the launch context of containers started from
// now on; Tokens then has them.
func (d *Driver) UpdateTokens(tokens []credentials.Token) {
	d.send(freshCredentials{tokens: tokens})
}

// Tokens are the application's freshest delegation tokens: YARN.Tokens,
// or the last UpdateTokens brought. Only once Run has returned: until
// then the loop owns them.
func (d *Driver) Tokens() []credentials.Token { return d.tokens }

func (d *Driver) updateCredentials(ev freshCredentials) {
	file, err := (&credentials.Credentials{Tokens: ev.tokens}).Bytes()
	if err == nil && d.rm != nil {
		err = d.rm.y.Launcher.SetTokens(ev.tokens)
	}
	if err != nil {
		d.log.WithError(err).Error("the fresh delegation tokens cannot be passed on: the executors keep the old ones")
		return
	}
	d.tokens, d.credentials = ev.tokens, file
	for _, conn := range d.conns {
		conn.post(credentialsMessage(file))
	}
	d.log.WithField("executors", len(d.conns)).Info("sent fresh delegation tokens to the executors")
}

func credentialsMessage(file []byte) *wire.Envelope {
	return &wire.Envelope{Message: &wire.Envelope_Credentials{Credentials: &wire.Credentials{File: file}}}
}
