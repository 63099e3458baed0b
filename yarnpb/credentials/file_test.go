package credentials

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Strings that must never appear in an error message.
const (
	passwordText = "PASSWORD-do-not-print"
	secretText   = "SECRET-do-not-print"
)

func sample() *Credentials {
	return &Credentials{
		Tokens: []Token{
			{Alias: "amrm", Kind: "YARN_AM_RM_TOKEN", Service: "10.0.0.1:8030", Identifier: []byte{0x80, 0xff, 0x00}, Password: []byte(passwordText)},
			{Alias: "tök", Kind: "NMToken", Service: "", Identifier: bytes.Repeat([]byte{0xab}, 300), Password: []byte{}},
		},
		Secrets: []Secret{
			{Alias: "key", Value: []byte(secretText)},
			{Alias: "empty", Value: []byte{}},
		},
	}
}

func encode(t *testing.T, c *Credentials, v Version) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Write(&buf, v); err != nil {
		t.Fatalf("Write(%v): %v", v, err)
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	for _, v := range []Version{Writable, Protobuf} {
		got, err := Read(bytes.NewReader(encode(t, sample(), v)))
		if err != nil {
			t.Fatalf("%v: %v", v, err)
		}
		if !reflect.DeepEqual(got, sample()) {
			t.Errorf("%v: read back %v, want %v", v, got, sample())
		}
	}
}

// Hadoop requires every token field in a CredentialsProto: nil slices must
// still be written, as empty.
func TestZeroValuesWriteAsEmpty(t *testing.T) {
	c := &Credentials{Tokens: []Token{{Alias: "t"}}, Secrets: []Secret{{Alias: "s"}}}
	want := &Credentials{
		Tokens:  []Token{{Alias: "t", Identifier: []byte{}, Password: []byte{}}},
		Secrets: []Secret{{Alias: "s", Value: []byte{}}},
	}
	for _, v := range []Version{Writable, Protobuf} {
		got, err := Read(bytes.NewReader(encode(t, c, v)))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%v: read back %#v, %v", v, got, err)
		}
	}
}

func TestEmptyFiles(t *testing.T) {
	for _, in := range []string{"HDTS\x00\x00\x00", "HDTS\x01\x00"} {
		c, err := Read(strings.NewReader(in))
		if err != nil || len(c.Tokens)+len(c.Secrets) != 0 {
			t.Errorf("Read(%q) = %v, %v", in, c, err)
		}
		if got := encode(t, c, Version(in[4])); string(got) != in {
			t.Errorf("re-written as %q, want %q", got, in)
		}
	}
}

// protobuf-go's own messages are left out of the expectations: it varies
// their spacing on purpose, so that nobody matches on them.
func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		offset   int
	}{
		{"", `no "HDTS" magic at offset 0: not a Hadoop credentials file`, 0},
		{"HDTX\x00\x00\x00", `no "HDTS" magic at offset 0`, 0},
		{"HDTS", "the file ends at offset 4, before the version byte", 4},
		{"HDTS\x02\x00\x00", "unknown version 2 at offset 4", 4},
		{"HDTS\x00", "token count at offset 5: the file ends before it", 5},
		{"HDTS\x00\xff\x00", "token count -1 at offset 5 is negative", 5},
		{"HDTS\x00\x8c\x7f\xff\xff\xff", "token count 2147483647 at offset 5 exceeds the 0 that the 0 bytes left can hold", 5},
		{"HDTS\x00\x02\x00\x00\x00\x00\x00\x00", "token count 2 at offset 5 exceeds the 1 that the 6 bytes left can hold", 5},
		{"HDTS\x00\x01\x04amrm\x8e\x01\x00abc", `token 1 ("amrm"): identifier length 256 at offset 11 exceeds the 3 bytes left`, 11},
		{"HDTS\x00\x01\x09amrm\x00\x00\x00", `token 1: alias length 9 at offset 6 exceeds the 7 bytes left`, 6},
		{"HDTS\x00\x01\x01a\x00\x00\x00\x8f", `token 1 ("a"): service length at offset 11: a 2-byte vint, but only 1 bytes are left`, 11},
		{"HDTS\x00\x00", "secret count at offset 6: the file ends before it", 6},
		{"HDTS\x00\x00\x01\x01k\x05ab", `secret 1 ("k"): value length 5 at offset 9 exceeds the 2 bytes left`, 9},
		{"HDTS\x00\x00\x00X", "1 bytes of trailing data at offset 7 after the Writable body", 7},
		{"HDTS\x01", "message length at offset 5 is not a valid varint (unexpected EOF)", 5},
		{"HDTS\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", "message length at offset 5 is not a valid varint (proto:", 5},
		{"HDTS\x01\x05\x00", "message length 5 at offset 5 exceeds the 1 bytes left", 5},
		{"HDTS\x01\x02\x0a\x00", "CredentialsProto of 2 bytes at offset 6: proto:", 6},
		{"HDTS\x01\x03\x0a\x01\x0a", "CredentialsProto of 3 bytes at offset 6: proto:", 6},
		{"HDTS\x01\x05\x0a\x03\x0a\x01a", `tokens entry 1 ("a") of the CredentialsProto at offset 6: a tokens entry needs a token and no secret`, 6},
		{"HDTS\x01\x05\x12\x03\x0a\x01s", `secrets entry 1 ("s") of the CredentialsProto at offset 6: a secrets entry needs a secret and no token`, 6},
		{"HDTS\x01\x00\x00", "1 bytes of trailing data at offset 6 after the Protobuf body", 6},
	} {
		_, err := Read(strings.NewReader(tc.in))
		fe, ok := errors.AsType[*FormatError](err)
		if !ok {
			t.Errorf("Read(%q): %v, want a *FormatError", tc.in, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), "credentials: ") || !strings.Contains(err.Error(), tc.want) || fe.Offset != tc.offset {
			t.Errorf("Read(%q):\n got %v (offset %d)\nwant %s (offset %d)", tc.in, err, fe.Offset, tc.want, tc.offset)
		}
	}
}

// Every prefix of a good file is a clean error at an offset inside it, one
// that names no password or secret.
func TestTruncatedFiles(t *testing.T) {
	for _, v := range []Version{Writable, Protobuf} {
		full := encode(t, sample(), v)
		for n := range len(full) {
			_, err := Read(bytes.NewReader(full[:n]))
			fe, ok := errors.AsType[*FormatError](err)
			if !ok {
				t.Fatalf("%v cut at %d: %v, want a *FormatError", v, n, err)
			}
			if fe.Offset < 0 || fe.Offset > n {
				t.Errorf("%v cut at %d: offset %d outside the input: %v", v, n, fe.Offset, err)
			}
			if msg := err.Error(); strings.Contains(msg, "do-not-print") {
				t.Errorf("%v cut at %d: error shows secret bytes: %s", v, n, msg)
			}
		}
	}
}

func TestReadRefusesOversizedInput(t *testing.T) {
	in := make([]byte, MaxFileSize+1)
	copy(in, "HDTS\x00")
	_, err := Read(bytes.NewReader(in))
	if fe, ok := errors.AsType[*FormatError](err); !ok || !strings.Contains(fe.Detail, "larger than") {
		t.Errorf("Read of %d bytes: %v", len(in), err)
	}
}

func TestWriteRefusesOversizedOutput(t *testing.T) {
	c := &Credentials{Secrets: []Secret{{Alias: "big", Value: make([]byte, MaxFileSize)}}}
	if err := c.Write(&bytes.Buffer{}, Writable); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("Write: %v, want an error about the limit", err)
	}
}

// A repeated alias replaces the earlier entry where it stood, as Hadoop's
// map put does; the codecs are fed such files directly, since Write refuses
// to make them.
func TestDuplicateAliasOnReadLaterWins(t *testing.T) {
	dup := &Credentials{
		Tokens: []Token{
			{Alias: "a", Kind: "K1", Identifier: []byte{1}, Password: []byte{}},
			{Alias: "b", Kind: "K2", Identifier: []byte{2}, Password: []byte{}},
			{Alias: "a", Kind: "K3", Identifier: []byte{3}, Password: []byte{}},
		},
		Secrets: []Secret{{Alias: "s", Value: []byte{1}}, {Alias: "s", Value: []byte{2}}},
	}
	want := &Credentials{
		Tokens:  []Token{dup.Tokens[2], dup.Tokens[1]},
		Secrets: []Secret{dup.Secrets[1]},
	}
	v1, err := appendProtobuf([]byte("HDTS\x01"), dup)
	if err != nil {
		t.Fatal(err)
	}
	for v, file := range map[Version][]byte{
		Writable: appendWritable([]byte("HDTS\x00"), dup),
		Protobuf: v1,
	} {
		got, err := Read(bytes.NewReader(file))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%v: read %v, %v; want %v", v, got, err, want)
		}
	}
}

func TestWriteRefuses(t *testing.T) {
	for _, tc := range []struct {
		c    *Credentials
		v    Version
		want string
	}{
		{&Credentials{Tokens: []Token{{Alias: "a"}, {Alias: "a"}}}, Writable, `two tokens with the alias "a"`},
		{&Credentials{Secrets: []Secret{{Alias: "s"}, {Alias: "s"}}}, Protobuf, `two secrets with the alias "s"`},
		{sample(), Version(2), "cannot write unknown Version(2)"},
	} {
		var buf bytes.Buffer
		err := tc.c.Write(&buf, tc.v)
		if err == nil || !strings.Contains(err.Error(), tc.want) || buf.Len() != 0 {
			t.Errorf("Write: %v after %d bytes, want %q and nothing written", err, buf.Len(), tc.want)
		}
	}
	// A token and a secret may share an alias: Hadoop keeps them apart.
	shared := &Credentials{Tokens: []Token{{Alias: "x"}}, Secrets: []Secret{{Alias: "x"}}}
	if err := shared.Write(&bytes.Buffer{}, Writable); err != nil {
		t.Errorf("token and secret sharing an alias: %v", err)
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "container_tokens")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, v := range []Version{Writable, Protobuf} {
		if err := sample().WriteFile(path, v); err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%v: mode %v, want 0600", v, info.Mode().Perm())
		}
		data, err := os.ReadFile(path)
		if err != nil || data[4] != byte(v) {
			t.Fatalf("%v: version byte %d, %v", v, data[4], err)
		}
		got, err := ReadFile(path)
		if err != nil || !reflect.DeepEqual(got, sample()) {
			t.Errorf("%v: ReadFile = %v, %v", v, got, err)
		}
	}
	// A refused write leaves the old file and no temporary behind.
	bad := &Credentials{Tokens: []Token{{Alias: "a"}, {Alias: "a"}}}
	if err := bad.WriteFile(path, Writable); err == nil {
		t.Error("WriteFile with a duplicate alias succeeded")
	}
	if err := sample().WriteFile(filepath.Join(dir, "missing", "f"), Writable); err == nil {
		t.Error("WriteFile into a missing directory succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "container_tokens" {
		t.Errorf("directory holds %v, want only container_tokens", entries)
	}
	if got, err := ReadFile(path); err != nil || !reflect.DeepEqual(got, sample()) {
		t.Errorf("after refused writes, ReadFile = %v, %v", got, err)
	}
}

func TestReadFileErrorsNameThePath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad")
	if err := os.WriteFile(path, []byte("HDTS\x07"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path)
	want := "credentials: " + path + ": unknown version 7 at offset 4"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("ReadFile: %v, want %s...", err, want)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "none")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: %v, want os.ErrNotExist", err)
	}
}

func TestFromEnvironment(t *testing.T) {
	t.Setenv(EnvTokenFile, "")
	if _, err := FromEnvironment(); !errors.Is(err, ErrNoTokenFile) {
		t.Errorf("unset: %v, want ErrNoTokenFile", err)
	}
	path := filepath.Join(t.TempDir(), "container_tokens")
	if err := sample().WriteFile(path, DefaultVersion); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvTokenFile, path)
	c, err := FromEnvironment()
	if err != nil || !reflect.DeepEqual(c, sample()) {
		t.Errorf("FromEnvironment = %v, %v", c, err)
	}
}
