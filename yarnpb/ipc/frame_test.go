package ipc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
)

func TestReadFrameRefusesOversizedLengthBeforeAllocating(t *testing.T) {
	// A 4 GiB length with 3 bytes behind it must fail on the length alone.
	in := append(binary.BigEndian.AppendUint32(nil, 0xFFFFFFFF), 1, 2, 3)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := readFrame(bytes.NewReader(in), 1<<20)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrMalformedFrame) {
		t.Fatalf("err = %v, want ErrMalformedFrame", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Fatalf("refusing the frame allocated %d bytes", n)
	}
}

func TestReadFrameErrors(t *testing.T) {
	for name, in := range map[string][]byte{
		"empty frame": {0, 0, 0, 0},
		"truncated":   {0, 0, 0, 9, 1, 2},
		"short len":   {0, 0},
	} {
		_, err := readFrame(bytes.NewReader(in), 1<<20)
		if err == nil {
			t.Errorf("%s: no error", name)
		}
		if name == "truncated" && !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("truncated: err = %v, want ErrUnexpectedEOF", err)
		}
	}
}

func TestDelimitedLengthBeyondFrame(t *testing.T) {
	_, _, err := nextDelimited([]byte{0x05, 1, 2}, "RpcResponseHeaderProto")
	if !errors.Is(err, ErrMalformedFrame) || !bytes.Contains([]byte(err.Error()), []byte("RpcResponseHeaderProto: length 5 exceeds the 2 bytes left")) {
		t.Fatalf("err = %v", err)
	}
	if _, _, err := nextDelimited([]byte{0xFF, 0xFF}, "x"); !errors.Is(err, ErrMalformedFrame) {
		t.Fatalf("unterminated varint: err = %v", err)
	}
}

func TestFrameRoundTrip(t *testing.T) {
	h := &hadoopcommon.RpcResponseHeaderProto{CallId: proto.Uint32(7), Status: hadoopcommon.RpcResponseHeaderProto_SUCCESS.Enum()}
	body := &hadoopcommon.TokenProto{Identifier: []byte{1}, Password: []byte{2}, Kind: proto.String("k"), Service: proto.String("s")}
	frame, err := appendFrame(nil, h, body)
	if err != nil {
		t.Fatal(err)
	}
	got, err := readFrame(bytes.NewReader(frame), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	id, res, err := parseResponse(got)
	if err != nil || id != 7 || res.err != nil {
		t.Fatalf("parseResponse = %d, %v, %v", id, res.err, err)
	}
	tok := &hadoopcommon.TokenProto{}
	if _, err := unmarshalDelimited(res.body, tok); err != nil || !proto.Equal(tok, body) {
		t.Fatalf("body = %v, %v", tok, err)
	}
}

func TestErrorResponseWithoutClassIsMalformed(t *testing.T) {
	h := &hadoopcommon.RpcResponseHeaderProto{CallId: proto.Uint32(1), Status: hadoopcommon.RpcResponseHeaderProto_ERROR.Enum()}
	frame, _ := appendFrame(nil, h)
	if _, _, err := parseResponse(frame[4:]); !errors.Is(err, ErrMalformedFrame) {
		t.Fatalf("err = %v", err)
	}
}

func TestPreamble(t *testing.T) {
	if got := preamble(false); !bytes.Equal(got, []byte("hrpc\x09\x00\x00")) {
		t.Fatalf("preamble(none) = %q", got)
	}
	if got := preamble(true); !bytes.Equal(got, []byte("hrpc\x09\x00\xdf")) {
		t.Fatalf("preamble(SASL) = %q", got)
	}
}
