package wire

import (
	"bytes"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
)

func TestEveryMessageRoundTrips(t *testing.T) {
	driver, executor := connect(t)
	covered := map[string]bool{}
	for _, m := range everyMessage() {
		covered[string(m.ProtoReflect().WhichOneof(m.ProtoReflect().Descriptor().Oneofs().ByName("message")).Name())] = true
		for _, dir := range []struct {
			name     string
			from, to *Conn
		}{{"executor to driver", executor, driver}, {"driver to executor", driver, executor}} {
			if err := dir.from.Send(m); err != nil {
				t.Fatalf("%s: Send: %v", dir.name, err)
			}
			got, err := dir.to.Recv()
			if err != nil {
				t.Fatalf("%s: Recv: %v", dir.name, err)
			}
			if !proto.Equal(got, m) {
				t.Fatalf("%s: got %v, want %v", dir.name, got, m)
			}
		}
	}
	fields := (&Envelope{}).ProtoReflect().Descriptor().Oneofs().ByName("message").Fields()
	for i := range fields.Len() {
		if name := string(fields.Get(i).Name()); !covered[name] {
			t.Errorf("no round trip of %s", name)
		}
	}
}

func TestLargeMessageRoundTrips(t *testing.T) {
	driver, executor := connect(t)
	m := launchBatch(1)
	m.GetLaunchBatch().Launches[0].Argv = []string{strings.Repeat("x", keptBufferSize+1)}
	for range 2 { // the second time after the oversized buffer was let go
		if err := driver.Send(m); err != nil {
			t.Fatal(err)
		}
		got, err := executor.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if !proto.Equal(got, m) {
			t.Fatal("large message changed on the way")
		}
	}
	if cap(executor.body) > keptBufferSize {
		t.Errorf("the connection kept a %d-byte buffer", cap(executor.body))
	}
}

func TestSendRefusesWithoutHarm(t *testing.T) {
	driver, executor := connect(t)
	huge := &Envelope{Message: &Envelope_Rejected{Rejected: &Rejected{Reason: string(bytes.Repeat([]byte("r"), MaxMessageSize))}}}
	for _, m := range []*Envelope{nil, {}, huge} {
		if err := driver.Send(m); err == nil {
			t.Fatalf("Send accepted %.40v", m)
		}
	}
	// Nothing went out, so the connection is still in step.
	want := everyMessage()[1]
	if err := driver.Send(want); err != nil {
		t.Fatal(err)
	}
	if got, err := executor.Recv(); err != nil || !proto.Equal(got, want) {
		t.Fatalf("after refused sends: %v, %v", got, err)
	}
}
