package amtest

import (
	"github.com/spindle-yarn/spindle/executor/wire"
)

// Serve plays the executor from a goroutine of its own until its
// connection ends (Answer says how); the test reads none of its messages
// meanwhile.
func (e *Executor) Serve() {
	e.running.Go(func() {
		for {
			m, err := e.conn.Recv()
			if err != nil {
				return
			}
			e.Answer(m)
		}
	})
}

// Answer answers m as a plain executor would: a task whose command is
// sleep runs until it is killed, and is then reported killed; any other
// succeeds at once. A send that fails because the connection ended is
// no matter: the next read says so.
func (e *Executor) Answer(m *wire.Envelope) {
	var sts []*wire.Status
	for _, l := range m.GetLaunchBatch().GetLaunches() {
		if argv := l.GetArgv(); len(argv) == 0 || argv[0] != "sleep" {
			sts = append(sts, Succeeded(l))
		}
	}
	if k := m.GetKill(); k != nil {
		sts = append(sts, Killed(k))
	}
	if len(sts) > 0 {
		e.conn.Send(&wire.Envelope{Message: &wire.Envelope_StatusBatch{StatusBatch: &wire.StatusBatch{Statuses: sts}}})
	}
}
