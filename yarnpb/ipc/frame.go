package ipc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// DefaultMaxFrame bounds a response frame as Hadoop's client does
// (ipc.maximum.response.length, 128 MiB).
const DefaultMaxFrame = 128 << 20

// ErrMalformedFrame is wrapped by every error about bytes that do not parse
// as Hadoop IPC.
var ErrMalformedFrame = errors.New("malformed IPC frame")

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformedFrame, fmt.Sprintf(format, args...))
}

// appendFrame appends one frame holding msgs, each length-delimited.
func appendFrame(dst []byte, msgs ...proto.Message) ([]byte, error) {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	opts := proto.MarshalOptions{}
	for _, m := range msgs {
		dst = protowire.AppendVarint(dst, uint64(opts.Size(m)))
		var err error
		if dst, err = opts.MarshalAppend(dst, m); err != nil {
			return nil, fmt.Errorf("encoding %s: %w", m.ProtoReflect().Descriptor().Name(), err)
		}
	}
	binary.BigEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return dst, nil
}

// readFrame reads one frame's body from r, refusing lengths above max
// before allocating anything.
func readFrame(r io.Reader, max int) ([]byte, error) {
	var lenBuf [4]byte
	if _, err := io.ReadFull(r, lenBuf[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(lenBuf[:])
	if n == 0 {
		return nil, malformed("empty frame")
	}
	if uint64(n) > uint64(max) {
		return nil, malformed("frame of %d bytes exceeds the limit of %d", n, max)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("reading a frame of %d bytes: %w", n, err)
	}
	return body, nil
}

// nextDelimited splits one varint-delimited message off the front of b.
func nextDelimited(b []byte, what string) (msg, rest []byte, err error) {
	n, l := protowire.ConsumeVarint(b)
	if l < 0 {
		return nil, nil, malformed("%s: bad length prefix", what)
	}
	if n > uint64(len(b)-l) {
		return nil, nil, malformed("%s: length %d exceeds the %d bytes left in the frame", what, n, len(b)-l)
	}
	return b[l : l+int(n)], b[l+int(n):], nil
}

// unmarshalDelimited decodes the next delimited message of b into m.
func unmarshalDelimited(b []byte, m proto.Message) (rest []byte, err error) {
	what := string(m.ProtoReflect().Descriptor().Name())
	msg, rest, err := nextDelimited(b, what)
	if err != nil {
		return nil, err
	}
	if err := proto.Unmarshal(msg, m); err != nil {
		return nil, malformed("%s: %v", what, err)
	}
	return rest, nil
}
