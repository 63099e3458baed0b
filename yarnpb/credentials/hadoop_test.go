package credentials

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"
)

// testdata/hadoop-v0.bin and hadoop-v1.bin were written by Hadoop 3.5.0's
// Credentials.writeTokenStorageFile, WRITABLE and PROTOBUF, from one
// Credentials object; hadoop-expected.json is what that object held, in
// Hadoop's map order (the order of both files), dumped by the same Java
// program. Byte strings are described by length and SHA-256, plus hex when
// short.

type expectedBytes struct {
	Len    int
	SHA256 string
	Hex    *string // absent for long ones
}

type expectedFile struct {
	Tokens []struct {
		Alias, Kind, Service string
		Identifier, Password expectedBytes
	}
	Secrets []struct {
		Alias string
		Value expectedBytes
	}
}

func (e expectedBytes) check(t *testing.T, what string, got []byte) {
	t.Helper()
	if got == nil {
		t.Errorf("%s is nil, want non-nil", what)
	}
	sum := sha256.Sum256(got)
	if len(got) != e.Len || hex.EncodeToString(sum[:]) != e.SHA256 {
		t.Errorf("%s: %d bytes with SHA-256 %x, want %d bytes with %s", what, len(got), sum, e.Len, e.SHA256)
	}
	if e.Hex != nil && hex.EncodeToString(got) != *e.Hex {
		t.Errorf("%s = %x, want %s", what, got, *e.Hex)
	}
}

func loadExpected(t *testing.T) expectedFile {
	t.Helper()
	raw, err := os.ReadFile("testdata/hadoop-expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var e expectedFile
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	return e
}

var hadoopFiles = map[Version]string{
	Writable: "testdata/hadoop-v0.bin",
	Protobuf: "testdata/hadoop-v1.bin",
}

func TestReadHadoopFiles(t *testing.T) {
	want := loadExpected(t)
	for v, path := range hadoopFiles {
		t.Run(v.String(), func(t *testing.T) {
			c, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Tokens) != len(want.Tokens) || len(c.Secrets) != len(want.Secrets) {
				t.Fatalf("read %d tokens, %d secrets; want %d, %d", len(c.Tokens), len(c.Secrets), len(want.Tokens), len(want.Secrets))
			}
			for i, w := range want.Tokens {
				g := c.Tokens[i]
				if g.Alias != w.Alias || g.Kind != w.Kind || g.Service != w.Service {
					t.Errorf("token %d = %q %q %q, want %q %q %q", i, g.Alias, g.Kind, g.Service, w.Alias, w.Kind, w.Service)
				}
				w.Identifier.check(t, g.Alias+" identifier", g.Identifier)
				w.Password.check(t, g.Alias+" password", g.Password)
			}
			for i, w := range want.Secrets {
				g := c.Secrets[i]
				if g.Alias != w.Alias {
					t.Errorf("secret %d alias = %q, want %q", i, g.Alias, w.Alias)
				}
				w.Value.check(t, g.Alias+" value", g.Value)
			}
		})
	}
}

// Whichever version was read, writing the content in either version gives
// Hadoop's bytes exactly: Hadoop's protobuf output is deterministic too.
func TestWriteReproducesHadoopBytes(t *testing.T) {
	for from, fromPath := range hadoopFiles {
		c, err := ReadFile(fromPath)
		if err != nil {
			t.Fatal(err)
		}
		for to, toPath := range hadoopFiles {
			want, err := os.ReadFile(toPath)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := c.Write(&got, to); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("read %v, wrote %v: %d bytes differ from Hadoop's %d bytes in %s", from, to, got.Len(), len(want), toPath)
			}
		}
	}
}

func TestHadoopFileLookups(t *testing.T) {
	c, err := ReadFile(hadoopFiles[DefaultVersion])
	if err != nil {
		t.Fatal(err)
	}
	amrm, ok := c.FindToken("YARN_AM_RM_TOKEN", "127.0.0.1:8030")
	if !ok || amrm.Alias != "amrm" {
		t.Errorf("FindToken(YARN_AM_RM_TOKEN) = %v, %v", amrm, ok)
	}
	if nm := c.TokensOfKind("NMToken"); len(nm) != 1 || nm[0].Service != "" {
		t.Errorf("TokensOfKind(NMToken) = %v", nm)
	}
	if v, ok := c.FindSecret("empty"); !ok || len(v) != 0 {
		t.Errorf("FindSecret(empty) = %x, %v", v, ok)
	}
	if _, ok := c.FindSecret("spindle.secret.k\u00e9y"); !ok {
		t.Error("FindSecret(spindle.secret.kéy) not found")
	}
}
