package staging

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
)

func confWith(kv ...string) *hadoopconf.Conf {
	c := hadoopconf.New(hadoopconf.Env{})
	for i := 0; i < len(kv); i += 2 {
		c.Set(kv[i], kv[i+1])
	}
	return c
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"134217728": 128 << 20, "128m": 128 << 20, " 1G ": 1 << 30, "64k": 64 << 10} {
		if got, err := parseBytes(in); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "m", "-1", "0", "1.5g", "8e", "12x"} {
		if got, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q) = %d, want an error", in, got)
		}
	}
}

func TestNewRefusesWhatItCannotStageOn(t *testing.T) {
	for _, tc := range []struct {
		conf *hadoopconf.Conf
		user string
		want string
	}{
		{confWith("fs.defaultFS", "s3a://bucket"), "alice", "cannot stage files on s3a://"},
		{confWith("fs.defaultFS", "hdfs://nn:8020"), "", "no user"},
		{confWith("fs.defaultFS", "hdfs://nn:8020", "hadoop.security.authentication", "kerberos"), "alice", "kerberos, and this process has no Kerberos login"},
		{confWith("fs.defaultFS", "hdfs://nn:8020", "dfs.blocksize", "big"), "alice", `dfs.blocksize = "big"`},
		// No panic in colinmarc/hdfs on a value with spaces around it.
		{confWith("fs.defaultFS", " hdfs://nn:8020 ", "dfs.blocksize", "big"), "alice", `dfs.blocksize = "big"`},
		{confWith("fs.defaultFS", "hdfs://nn:8020", "dfs.replication", "two"), "alice", "dfs.replication"},
	} {
		s, err := New(tc.conf, tc.user, nil)
		if err == nil {
			s.Close()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(fs.defaultFS=%s, user %q) = %v, want an error containing %q", tc.conf.GetDefault("fs.defaultFS", ""), tc.user, err, tc.want)
		}
	}
}
