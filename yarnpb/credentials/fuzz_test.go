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
