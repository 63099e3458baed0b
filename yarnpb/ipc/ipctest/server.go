package ipctest

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/sasl"
)

// Handler answers one call: a response message, or an error — a
// *ipc.RemoteError is sent back as the server's exception.
type Handler func(method string, body []byte) (proto.Message, error)

// Server is a fake Hadoop IPC server on a loopback port.
type Server struct {
	// Protocol is the protocol name the server serves; calls declaring
	// another are refused as Hadoop refuses them.
	Protocol string
	Handler  Handler
	// SASL, when set, runs the server side of the SASL exchange after the
	// preamble of a client that asked for SASL, returning the layer to wrap
	// with (nil for none). Unset, the server tells SASL clients to fall back
	// to SIMPLE, as an insecure Hadoop server does.
	SASL func(rw io.ReadWriter) (sasl.Layer, error)

	ln    net.Listener
	pings atomic.Int64
	conns atomic.Int64

	mu       sync.Mutex
	users    []string
	open     map[net.Conn]bool
	closeAll bool
}

// Start listens on a loopback port and serves until the test ends.
func (s *Server) Start(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.ln = ln
	s.open = map[net.Conn]bool{}
	go s.serve()
	t.Cleanup(s.Close)
	return ln.Addr().String()
}

// Close stops the server and drops its connections.
func (s *Server) Close() {
	s.ln.Close()
	s.DropConnections()
}

// DropConnections closes every open connection, as a restarting server would.
func (s *Server) DropConnections() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.open {
		c.Close()
	}
}

// Pings is how many pings the server received.
func (s *Server) Pings() int64 { return s.pings.Load() }

// Connections is how many connections the server accepted.
func (s *Server) Connections() int64 { return s.conns.Load() }

// Users lists the effective users of the connection contexts received.
func (s *Server) Users() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.users...)
}

func (s *Server) serve() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.conns.Add(1)
		s.mu.Lock()
		s.open[c] = true
		s.mu.Unlock()
		go func() {
			s.handle(c)
			c.Close()
			s.mu.Lock()
			delete(s.open, c)
			s.mu.Unlock()
		}()
	}
}

// handle serves one client's connection: its handshake, then its calls,
// each answered from a goroutine of its own, as Hadoop's server does.
func (s *Server) handle(c net.Conn) {
	r, w, ok := s.handshake(c)
	if !ok {
		return
	}
	var wmu sync.Mutex
	send := func(frame []byte) {
		wmu.Lock()
		defer wmu.Unlock()
		w.Write(frame)
	}
	for {
		frame, err := readFrame(r)
		if err != nil {
			return
		}
		header := &hadoopcommon.RpcRequestHeaderProto{}
		rest, err := delimited(frame, header)
		if err != nil {
			return
		}
		switch header.GetCallId() {
		case -4:
			s.pings.Add(1)
			continue
		case -3:
			cc := &hadoopcommon.IpcConnectionContextProto{}
			if _, err := delimited(rest, cc); err != nil {
				return
			}
			s.mu.Lock()
			s.users = append(s.users, cc.GetUserInfo().GetEffectiveUser())
			s.mu.Unlock()
			continue
		}
		rh := &hadoopcommon.RequestHeaderProto{}
		body, err := delimited(rest, rh)
		if err != nil {
			return
		}
		go func(id int32, method, protocol string, body []byte) {
			resp, err := s.call(method, protocol, body)
			send(response(uint32(id), resp, err))
		}(header.GetCallId(), rh.GetMethodName(), rh.GetDeclaringClassProtocolName(), body)
	}
}

// handshake reads a connection's preamble and, when the client asks for
// it, negotiates SASL (s.SASL's exchange; without one, a SUCCESS that
// has the client fall back to SIMPLE). It
// returns where the calls are read from and answers written to: through
// the security layer SASL set up, if any; false for a client to drop.
func (s *Server) handshake(c net.Conn) (io.Reader, io.Writer, bool) {
	br := bufio.NewReader(c)
	var pre [7]byte
	if _, err := io.ReadFull(br, pre[:]); err != nil || string(pre[:4]) != "hrpc" || pre[4] != 9 {
		return nil, nil, false
	}
	if pre[6] != 0xDF {
		return br, c, true
	}
	if s.SASL == nil {
		if _, err := ReadSASL(br); err != nil {
			return nil, nil, false
		}
		if WriteSASL(c, &hadoopcommon.RpcSaslProto{State: hadoopcommon.RpcSaslProto_SUCCESS.Enum()}) != nil {
			return nil, nil, false
		}
		return br, c, true
	}
	rw := struct {
		io.Reader
		io.Writer
	}{br, c}
	layer, err := s.SASL(rw)
	if err != nil {
		return nil, nil, false
	}
	if layer != nil {
		return &unwrapReader{r: br, layer: layer}, &wrapWriter{w: c, layer: layer}, true
	}
	return br, c, true
}

// call answers one call of method of protocol, body its request.
func (s *Server) call(method, protocol string, body []byte) (proto.Message, error) {
	if protocol != s.Protocol {
		return nil, &ipc.RemoteError{Class: "org.apache.hadoop.ipc.RpcNoSuchProtocolException", Message: "unknown protocol: " + protocol}
	}
	msg, _, err := nextDelimited(body)
	if err != nil {
		return nil, err
	}
	return s.Handler(method, msg)
}

// response builds the frame answering call id.
func response(id uint32, resp proto.Message, err error) []byte {
	h := &hadoopcommon.RpcResponseHeaderProto{CallId: proto.Uint32(id), ServerIpcVersionNum: proto.Uint32(9)}
	var re *ipc.RemoteError
	switch {
	case err == nil:
		h.Status = hadoopcommon.RpcResponseHeaderProto_SUCCESS.Enum()
		return Frame(h, resp)
	case errors.As(err, &re):
		h.Status = hadoopcommon.RpcResponseHeaderProto_ERROR.Enum()
		if re.Fatal {
			h.Status = hadoopcommon.RpcResponseHeaderProto_FATAL.Enum()
		}
		h.ExceptionClassName = proto.String(re.Class)
		h.ErrorMsg = proto.String(re.Message)
		h.ErrorDetail = hadoopcommon.RpcResponseHeaderProto_ERROR_APPLICATION.Enum()
	default:
		h.Status = hadoopcommon.RpcResponseHeaderProto_ERROR.Enum()
		h.ExceptionClassName = proto.String("java.io.IOException")
		h.ErrorMsg = proto.String(err.Error())
	}
	return Frame(h)
}

// Frame encodes msgs as one length-prefixed frame of delimited messages.
func Frame(msgs ...proto.Message) []byte {
	var body []byte
	for _, m := range msgs {
		b, err := proto.Marshal(m)
		if err != nil {
			panic(fmt.Sprintf("ipctest: encoding %T: %v", m, err))
		}
		body = protowire.AppendVarint(body, uint64(len(b)))
		body = append(body, b...)
	}
	out := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
	return append(out, body...)
}

func readFrame(r io.Reader) ([]byte, error) {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, err
	}
	size := binary.BigEndian.Uint32(n[:])
	if size > 64<<20 {
		return nil, fmt.Errorf("ipctest: frame of %d bytes", size)
	}
	b := make([]byte, size)
	_, err := io.ReadFull(r, b)
	return b, err
}

func nextDelimited(b []byte) (msg, rest []byte, err error) {
	n, l := protowire.ConsumeVarint(b)
	if l < 0 || n > uint64(len(b)-l) {
		return nil, nil, errors.New("ipctest: bad delimited message")
	}
	return b[l : l+int(n)], b[l+int(n):], nil
}

func delimited(b []byte, m proto.Message) ([]byte, error) {
	msg, rest, err := nextDelimited(b)
	if err != nil {
		return nil, err
	}
	return rest, proto.Unmarshal(msg, m)
}

// ReadSASL reads a client's SASL message (call id -33).
func ReadSASL(r io.Reader) (*hadoopcommon.RpcSaslProto, error) {
	frame, err := readFrame(r)
	if err != nil {
		return nil, err
	}
	h := &hadoopcommon.RpcRequestHeaderProto{}
	rest, err := delimited(frame, h)
	if err != nil {
		return nil, err
	}
	if h.GetCallId() != -33 {
		return nil, fmt.Errorf("ipctest: call id %d during SASL", h.GetCallId())
	}
	m := &hadoopcommon.RpcSaslProto{}
	_, err = delimited(rest, m)
	return m, err
}

// WriteSASL sends a SASL message to the client.
func WriteSASL(w io.Writer, m *hadoopcommon.RpcSaslProto) error {
	h := &hadoopcommon.RpcResponseHeaderProto{
		CallId: proto.Uint32(1<<32 - 33),
		Status: hadoopcommon.RpcResponseHeaderProto_SUCCESS.Enum(),
	}
	_, err := w.Write(Frame(h, m))
	return err
}

// wrapWriter and unwrapReader are the server's side of a SASL layer.
type wrapWriter struct {
	w     io.Writer
	layer sasl.Layer
}

func (ww *wrapWriter) Write(p []byte) (int, error) {
	token, err := ww.layer.Wrap(p)
	if err != nil {
		return 0, err
	}
	if err := WriteSASL(ww.w, &hadoopcommon.RpcSaslProto{State: hadoopcommon.RpcSaslProto_WRAP.Enum(), Token: token}); err != nil {
		return 0, err
	}
	return len(p), nil
}

type unwrapReader struct {
	r     io.Reader
	layer sasl.Layer
	buf   bytes.Reader
}

func (ur *unwrapReader) Read(p []byte) (int, error) {
	for ur.buf.Len() == 0 {
		m, err := ReadSASL(ur.r)
		if err != nil {
			return 0, err
		}
		if m.GetState() != hadoopcommon.RpcSaslProto_WRAP {
			return 0, fmt.Errorf("ipctest: SASL %v after negotiation", m.GetState())
		}
		plain, err := ur.layer.Unwrap(m.GetToken())
		if err != nil {
			return 0, err
		}
		ur.buf.Reset(plain)
	}
	return ur.buf.Read(p)
}
