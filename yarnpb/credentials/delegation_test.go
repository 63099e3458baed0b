package credentials

import (
	"strings"
	"testing"
	"time"
)

func delegationIdentifier(owner, renewer, real string, issued, maxDate, seq, key int64) []byte {
	b := []byte{0}
	for _, s := range []string{owner, renewer, real} {
		b = appendText(b, s)
	}
	for _, v := range []int64{issued, maxDate, seq, key} {
		b = appendVLong(b, v)
	}
	return b
}

func TestParseDelegationIdentifier(t *testing.T) {
	issued := time.UnixMilli(1_795_000_000_123)
	b := delegationIdentifier("alice", "hadoop", "", issued.UnixMilli(), issued.Add(7*24*time.Hour).UnixMilli(), 42, 3)
	id, err := ParseDelegationIdentifier(b)
	if err != nil {
		t.Fatal(err)
	}
	want := DelegationIdentifier{Owner: "alice", Renewer: "hadoop", Issued: issued, MaxDate: issued.Add(7 * 24 * time.Hour), SequenceNumber: 42, MasterKeyID: 3}
	if id != want {
		t.Fatalf("parsed %+v, want %+v", id, want)
	}
	for name, tc := range map[string]struct {
		b    []byte
		want string
	}{
		"empty":           {nil, "empty"},
		"version 1":       {append([]byte{1}, b[1:]...), "version 1, want 0"},
		"cut in a date":   {b[:len(b)-4], "max date at offset"},
		"trailing bytes":  {append(append([]byte{}, b...), 7), "1 bytes after the master key id"},
		"owner too large": {[]byte{0, 0x7f, 'a'}, "owner length 127"},
	} {
		if _, err := ParseDelegationIdentifier(tc.b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, tc.want)
		}
	}
}
