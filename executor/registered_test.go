package executor

import (
	"context"
	"testing"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// serveRegistered runs Serve with cfg against a driver of the test's,
// listening on cfg.Secret (a fresh one when nil) at an address of its own
// (cfg.DriverAddr is set here); the driver accepts the executor and
// answers its Register. It returns the driver's side of the connection
// and Serve's result to come.
func serveRegistered(t *testing.T, ctx context.Context, cfg Config) (*wire.Conn, <-chan error) {
	t.Helper()
	if cfg.Secret == nil {
		cfg.Secret = wire.NewSecret()
	}
	ln, err := wire.Listen("tcp", "127.0.0.1:0", cfg.Secret)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	cfg.DriverAddr = ln.Addr().String()
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, cfg) }()
	conn, err := ln.Accept(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if m, err := conn.Recv(); err != nil || m.GetRegister() == nil {
		t.Fatalf("first message %v, %v; want Register", m, err)
	}
	conn.Send(&wire.Envelope{Message: &wire.Envelope_Registered{Registered: &wire.Registered{}}})
	return conn, served
}
