package wire

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"runtime"
	"testing"
	"time"
)

// expectBadFrame checks that the driver refuses what the raw executor sent,
// and that the refusal closed the connection.
func expectBadFrame(t *testing.T, driver *Conn, nc net.Conn) error {
	t.Helper()
	_, err := driver.Recv()
	if !errors.Is(err, ErrBadFrame) {
		t.Fatalf("Recv: %v, want ErrBadFrame", err)
	}
	assertNoSecret(t, err)
	if _, again := driver.Recv(); again != err {
		t.Errorf("Recv after the error: %v, want the same error", again)
	}
	if got := readAll(t, nc); len(got) != 0 {
		t.Errorf("the driver sent %d bytes after a bad frame", len(got))
	}
	if err := driver.Send(everyMessage()[1]); err == nil {
		t.Error("Send still works after a bad frame")
	}
	return err
}

func TestTamperedFrameClosesTheConnection(t *testing.T) {
	l := listenT(t, testSecret, HandshakeTimeout)
	frameLen := 0
	for _, pos := range []int{3, headerSize, headerSize + 5, -tagSize, -1} { // the length, the ciphertext, the tag
		nc, executor := rawExecutor(t, l.Addr().String())
		driver, err := acceptT(t, l)
		if err != nil {
			t.Fatal(err)
		}
		frame := sealFrame(t, executor, register("x"))
		frameLen = len(frame)
		if pos < 0 {
			pos += len(frame)
		}
		frame[pos] ^= 0x01
		if pos < headerSize {
			// A shorter length: the last byte is left over, unread.
			binary.BigEndian.PutUint32(frame, uint32(len(frame)-headerSize-1))
		}
		nc.Write(frame)
		t.Logf("bit flipped at %d of %d: %v", pos, frameLen, expectBadFrame(t, driver, nc))
	}
}

func TestReplayedFrameIsRefused(t *testing.T) {
	l := listenT(t, testSecret, HandshakeTimeout)
	nc, executor := rawExecutor(t, l.Addr().String())
	driver, err := acceptT(t, l)
	if err != nil {
		t.Fatal(err)
	}
	frame := sealFrame(t, executor, register("x"))
	nc.Write(frame)
	if _, err := driver.Recv(); err != nil {
		t.Fatalf("the original frame: %v", err)
	}
	nc.Write(frame)
	expectBadFrame(t, driver, nc)
}

func TestReorderedFramesAreRefused(t *testing.T) {
	l := listenT(t, testSecret, HandshakeTimeout)
	nc, executor := rawExecutor(t, l.Addr().String())
	driver, err := acceptT(t, l)
	if err != nil {
		t.Fatal(err)
	}
	first := sealFrame(t, executor, register("x"))
	second := sealFrame(t, executor, everyMessage()[8])
	nc.Write(append(second, first...))
	expectBadFrame(t, driver, nc)
}

// A frame the driver sealed, sent back to it, does not pass as the
// executor's.
func TestReflectedFrameIsRefused(t *testing.T) {
	l := listenT(t, testSecret, HandshakeTimeout)
	nc, _ := rawExecutor(t, l.Addr().String())
	driver, err := acceptT(t, l)
	if err != nil {
		t.Fatal(err)
	}
	if err := driver.Send(everyMessage()[8]); err != nil {
		t.Fatal(err)
	}
	var header [headerSize]byte
	if _, err := io.ReadFull(nc, header[:]); err != nil {
		t.Fatal(err)
	}
	body := make([]byte, binary.BigEndian.Uint32(header[:]))
	if _, err := io.ReadFull(nc, body); err != nil {
		t.Fatal(err)
	}
	nc.Write(append(header[:], body...))
	expectBadFrame(t, driver, nc)
}

func TestImpossibleLengthsAreRefusedBeforeAllocating(t *testing.T) {
	l := listenT(t, testSecret, HandshakeTimeout)
	for _, n := range []uint32{0, tagSize - 1, MaxMessageSize + tagSize + 1, 1<<32 - 1} {
		nc, _ := rawExecutor(t, l.Addr().String())
		driver, err := acceptT(t, l)
		if err != nil {
			t.Fatal(err)
		}
		nc.Write(binary.BigEndian.AppendUint32(nil, n))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err = expectBadFrame(t, driver, nc)
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
			t.Errorf("length %d: %d bytes allocated", n, grew)
		}
		t.Logf("length %d: %v", n, err)
	}
}

func TestEndOfStream(t *testing.T) {
	l := listenT(t, testSecret, HandshakeTimeout)

	t.Run("between frames", func(t *testing.T) {
		nc, executor := rawExecutor(t, l.Addr().String())
		driver, err := acceptT(t, l)
		if err != nil {
			t.Fatal(err)
		}
		nc.Write(sealFrame(t, executor, register("x")))
		nc.Close()
		if _, err := driver.Recv(); err != nil {
			t.Fatal(err)
		}
		if _, err := driver.Recv(); err != io.EOF {
			t.Fatalf("Recv: %v, want io.EOF", err)
		}
	})
	t.Run("inside a frame", func(t *testing.T) {
		nc, executor := rawExecutor(t, l.Addr().String())
		driver, err := acceptT(t, l)
		if err != nil {
			t.Fatal(err)
		}
		frame := sealFrame(t, executor, register("x"))
		nc.Write(frame[:len(frame)-1])
		nc.Close()
		if _, err := driver.Recv(); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("Recv: %v, want io.ErrUnexpectedEOF", err)
		}
	})
	t.Run("closed here", func(t *testing.T) {
		driver, _ := connect(t)
		done := make(chan error)
		go func() { _, err := driver.Recv(); done <- err }()
		time.Sleep(10 * time.Millisecond)
		driver.Close()
		if err := <-done; !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Recv: %v, want net.ErrClosed", err)
		}
	})
}
