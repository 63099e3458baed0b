package credentials

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// FuzzRead feeds Read arbitrary bytes (seeds in testdata/fuzz/FuzzRead). It
// must never panic, must fail only with a *FormatError, and whatever it
// accepts must survive being written in either version and read back.
func FuzzRead(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Read(bytes.NewReader(data))
		if err != nil {
			if _, ok := errors.AsType[*FormatError](err); !ok {
				t.Fatalf("Read: %T %v, want a *FormatError", err, err)
			}
			return
		}
		for _, v := range []Version{Writable, Protobuf} {
			var buf bytes.Buffer
			if err := c.Write(&buf, v); err != nil {
				t.Fatalf("Write(%v) of what Read accepted: %v", v, err)
			}
			back, err := Read(&buf)
			if err != nil {
				t.Fatalf("Read of what Write(%v) wrote: %v", v, err)
			}
			if !reflect.DeepEqual(back, c) {
				t.Fatalf("%v round trip changed the content:\n got %#v\nwant %#v", v, back, c)
			}
		}
	})
}

// FuzzParseDelegationIdentifier: identifiers come from token files and
// RPC answers; parsing never panics, fails only with a *FormatError, and
// whatever it accepts is written back byte for byte.
func FuzzParseDelegationIdentifier(f *testing.F) {
	f.Add(delegationIdentifier("alice", "hadoop", "", 1_795_000_000_123, 1_795_604_800_123, 42, 3))
	f.Fuzz(func(t *testing.T, data []byte) {
		id, err := ParseDelegationIdentifier(data)
		if err != nil {
			if _, ok := errors.AsType[*FormatError](err); !ok {
				t.Fatalf("%T %v, want a *FormatError", err, err)
			}
			return
		}
		back := delegationIdentifier(id.Owner, id.Renewer, id.RealUser, id.Issued.UnixMilli(), id.MaxDate.UnixMilli(), id.SequenceNumber, id.MasterKeyID)
		if id2, err := ParseDelegationIdentifier(back); err != nil || id2 != id {
			t.Fatalf("accepted %x as %+v, which reads back as %+v, %v", data, id, id2, err)
		}
	})
}
