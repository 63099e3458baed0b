package ipc

import (
	"bytes"
	"fmt"
	"io"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/sasl"
)

// wrapChunk bounds the plaintext of one WRAP message when the layer does
// not say what the server accepts (sasl.SendLimiter): well under the SASL
// default buffer of 64 KiB, leaving room for a MAC and padding.
const wrapChunk = 32 << 10

// wrappedWriter carries the byte stream of frames inside SASL WRAP
// messages, as a connection must once integrity or privacy was negotiated.
type wrappedWriter struct {
	w     io.Writer
	layer sasl.Layer
}

func (ww *wrappedWriter) Write(p []byte) (int, error) {
	size := wrapChunk
	if l, ok := ww.layer.(sasl.SendLimiter); ok && l.MaxSend() > 0 {
		size = l.MaxSend()
	}
	var out []byte
	for off := 0; off < len(p); off += size {
		chunk := p[off:min(off+size, len(p))]
		token, err := ww.layer.Wrap(chunk)
		if err != nil {
			return 0, fmt.Errorf("SASL wrap: %w", err)
		}
		msg := &hadoopcommon.RpcSaslProto{State: hadoopcommon.RpcSaslProto_WRAP.Enum(), Token: token}
		if out, err = appendFrame(out, saslHeader(), msg); err != nil {
			return 0, err
		}
	}
	if _, err := ww.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// wrappedReader yields the byte stream the server wrapped: each frame it
// reads must be a SASL WRAP message, whose unwrapped token continues the
// stream. A server wraps each whole response at once, so tokens may be far
// larger than a chunk; only the frame limit bounds them.
type wrappedReader struct {
	r        io.Reader
	layer    sasl.Layer
	maxFrame int
	buf      bytes.Reader
}

func (wr *wrappedReader) Read(p []byte) (int, error) {
	for wr.buf.Len() == 0 {
		frame, err := readFrame(wr.r, wr.maxFrame)
		if err != nil {
			return 0, err
		}
		header := &hadoopcommon.RpcResponseHeaderProto{}
		rest, err := unmarshalDelimited(frame, header)
		if err != nil {
			return 0, err
		}
		if header.GetStatus() != hadoopcommon.RpcResponseHeaderProto_SUCCESS {
			return 0, remoteError(header)
		}
		if header.GetCallId() != saslCallIDUnsigned {
			return 0, malformed("unwrapped response (call id %d) on a connection that negotiated a SASL layer", header.GetCallId())
		}
		msg := &hadoopcommon.RpcSaslProto{}
		if _, err := unmarshalDelimited(rest, msg); err != nil {
			return 0, err
		}
		if msg.GetState() != hadoopcommon.RpcSaslProto_WRAP {
			return 0, malformed("SASL %v message where WRAP was expected", msg.GetState())
		}
		plain, err := wr.layer.Unwrap(msg.GetToken())
		if err != nil {
			return 0, fmt.Errorf("SASL unwrap: %w", err)
		}
		wr.buf.Reset(plain)
	}
	return wr.buf.Read(p)
}
