package wire

import (
	"context"
	"net"
	"testing"
	"time"
)

// FuzzRecv feeds the driver's Recv whatever an executor sends after a valid
// handshake: raw bytes (frame headers, lengths, forged ciphertext), or, with
// sealed, bytes sealed with the right key as one frame (the Envelope
// decoding that only an authenticated peer reaches). Recv must never panic,
// and must return only envelopes that carry a message. Besides every kind
// of message, testdata/fuzz/FuzzRecv seeds the edge cases: impossible
// lengths, forged and truncated frames, sealed bytes that are not an
// Envelope.
func FuzzRecv(f *testing.F) {
	for _, m := range everyMessage() {
		b, _ := marshalFrame(m)
		f.Add(b[headerSize:], true)
	}
	f.Fuzz(func(t *testing.T, data []byte, sealed bool) {
		driverEnd, executorEnd := net.Pipe()
		defer driverEnd.Close()
		defer executorEnd.Close()
		accepted := make(chan *Conn, 1)
		go func() {
			c, _ := handshake(context.Background(), driverEnd, testSecret, roleDriver, time.Second)
			accepted <- c
		}()
		executor, err := handshake(context.Background(), executorEnd, testSecret, roleExecutor, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		driver := <-accepted
		if driver == nil {
			t.Fatal("the driver's handshake failed")
		}
		if sealed {
			if data, err = executor.send.seal(append([]byte{0, 0, 0, 0}, data...)); err != nil {
				t.Fatal(err)
			}
		}
		go func() {
			executorEnd.Write(data)
			executorEnd.Close()
		}()
		for {
			m, err := driver.Recv()
			if err != nil {
				return
			}
			if m.GetMessage() == nil {
				t.Fatal("Recv returned an envelope with no message")
			}
		}
	})
}
