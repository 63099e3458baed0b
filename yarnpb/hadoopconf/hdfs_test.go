package hadoopconf

import (
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestNameNodes(t *testing.T) {
	with := func(kv ...string) *Conf {
		c := New(Env{})
		for i := 0; i < len(kv); i += 2 {
			c.Set(kv[i], kv[i+1])
		}
		return c
	}
	ha := with(
		"dfs.ha.namenodes.ns1", "nn1, nn2",
		"dfs.namenode.rpc-address.ns1.nn1", "a.example.com:8020",
		"dfs.namenode.rpc-address.ns1.nn2", "b.example.com:8020",
		"dfs.namenode.rpc-address.other.nn1", "c.example.com:8020",
	)
	for _, tc := range []struct {
		conf   *Conf
		fs     string
		want   []string
		wantNS string
	}{
		{with(), "hdfs://nn:9000", []string{"nn:9000"}, ""},
		{with(), "hdfs://nn", []string{"nn:8020"}, ""},
		{ha, "hdfs://ns1", []string{"a.example.com:8020", "b.example.com:8020"}, "ns1"},
		{ha, "hdfs://a.example.com:8020", []string{"a.example.com:8020"}, ""},
	} {
		u, _ := url.Parse(tc.fs)
		got, ns, err := tc.conf.NameNodes(u)
		if err != nil || !slices.Equal(got, tc.want) || ns != tc.wantNS {
			t.Errorf("NameNodes(%s) = %v, %q, %v; want %v, %q", tc.fs, got, ns, err, tc.want, tc.wantNS)
		}
	}

	u, _ := url.Parse("hdfs://ns1")
	broken := with("dfs.ha.namenodes.ns1", "nn1,nn2", "dfs.namenode.rpc-address.ns1.nn1", "a:8020")
	if _, _, err := broken.NameNodes(u); err == nil || !strings.Contains(err.Error(), "dfs.namenode.rpc-address.ns1.nn2 is not set") {
		t.Errorf("NameNodes with a NameNode without an address = %v", err)
	}
}
