package am_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/am/core"
)

// BenchmarkSessionOneTaskJob is one job through a warm session, from a
// client's followed submit to its end: a one-task job on one of 4
// executors that succeed every task at once. What the loop does per job
// (placement, launch, status, the followers, telling the executors the
// job ended) shows beside the client's own handshake.
func BenchmarkSessionOneTaskJob(b *testing.B) {
	quiet := logrus.New()
	quiet.SetOutput(io.Discard)
	d := amtest.StartSession(b, amtest.WithLog(quiet), amtest.WithCore(func(c *core.Config) { c.AppID = "bench" }))
	for i := range 4 {
		e := d.Register(b, fmt.Sprint("e", i), amtest.Host("h"))
		e.Registered(b)
		e.Serve()
	}
	c := d.Client()
	b.ResetTimer()
	for range b.N {
		_, updates := c.SubmitFollow(b, "name: j\nstages:\n  - {name: s, tasks: 1, command: [\"true\"]}\n")
		if last := updates[len(updates)-1]; last.GetJob().GetState() != "SUCCEEDED" {
			b.Fatalf("the job's last update: %v", last)
		}
	}
}
