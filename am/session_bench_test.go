package am

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/core"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/scheduler"
)

// BenchmarkSessionOneTaskJob is one job through a warm session, from a
// client's followed submit to its end: a one-task job on one of 4
// executors that succeed every task at once. What the loop does per job
// (placement, launch, status, the followers, telling the executors the
// job ended) shows beside the client's own handshake.
func BenchmarkSessionOneTaskJob(b *testing.B) {
	clientSecret := []byte("abcdefabcdefabcdefabcdefabcdefab")
	quiet := logrus.New()
	quiet.SetOutput(io.Discard)
	executors, err := wire.Listen("tcp", "127.0.0.1:0", testSecret)
	if err != nil {
		b.Fatal(err)
	}
	clients, err := wire.Listen("tcp", "127.0.0.1:0", clientSecret)
	if err != nil {
		b.Fatal(err)
	}
	d, err := New(Config{Core: core.Config{AppID: "bench", Session: true, Profiles: []scheduler.Profile{{Cores: 1}}},
		Executors: executors, Clients: clients, Log: quiet})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go d.Run(ctx, nil, nil)
	for i := range 4 {
		conn, err := wire.Dial(ctx, "tcp", d.Addr(), testSecret)
		if err != nil {
			b.Fatal(err)
		}
		defer conn.Close()
		conn.Send(&wire.Envelope{Message: &wire.Envelope_Register{Register: &wire.Register{ExecutorId: fmt.Sprint("e", i), Host: "h", Cores: 1}}})
		go func() {
			for {
				m, err := conn.Recv()
				if err != nil {
					return
				}
				if batch := m.GetLaunchBatch(); batch != nil {
					var sts []*wire.Status
					for _, l := range batch.GetLaunches() {
						sts = append(sts, &wire.Status{StageId: l.GetStageId(), TaskIndex: l.GetTaskIndex(), Attempt: l.GetAttempt(), State: wire.Status_SUCCEEDED})
					}
					conn.Send(&wire.Envelope{Message: &wire.Envelope_StatusBatch{StatusBatch: &wire.StatusBatch{Statuses: sts}}})
				}
			}
		}()
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		st, err := d.Status(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if len(st.Executors) == 4 {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d executors registered", len(st.Executors))
		}
	}
	submit := &wire.Envelope{Message: &wire.Envelope_SubmitJob{SubmitJob: &wire.SubmitJob{
		Spec: []byte("name: j\nstages:\n  - {name: s, tasks: 1, command: [\"true\"]}\n"), Source: "j.yaml", DefaultPool: "default", Follow: true}}}
	b.ResetTimer()
	for range b.N {
		client, err := wire.Dial(ctx, "tcp", d.cfg.Clients.Addr().String(), clientSecret)
		if err != nil {
			b.Fatal(err)
		}
		client.Send(submit)
		var last *wire.JobUpdate
		for {
			m, err := client.Recv()
			if err != nil {
				break
			}
			if u := m.GetJobUpdate(); u != nil {
				last = u
			}
		}
		client.Close()
		if !last.GetEnded() || last.GetJob().GetState() != "SUCCEEDED" {
			b.Fatalf("the job's last update: %v", last)
		}
	}
}
