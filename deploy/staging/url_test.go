package staging

import (
	"net/url"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

func TestResourceURL(t *testing.T) {
	const file = "/user/alice/.spindle/application_1_0001/spindle"
	for _, tc := range []struct {
		fs     string
		want   *hadoopyarn.URLProto
		prefix string // origin.String, for messages
	}{
		{"hdfs://nn.example.com:8020",
			&hadoopyarn.URLProto{Scheme: proto.String("hdfs"), Host: proto.String("nn.example.com"), Port: proto.Int32(8020), File: proto.String(file)},
			"hdfs://nn.example.com:8020"},
		// An HA nameservice has no port: -1, never absent (Java reads 0).
		{"hdfs://ns1",
			&hadoopyarn.URLProto{Scheme: proto.String("hdfs"), Host: proto.String("ns1"), Port: proto.Int32(-1), File: proto.String(file)},
			"hdfs://ns1"},
		// java.net.URI.getHost keeps an IPv6 literal's brackets.
		{"hdfs://[::1]:9000/",
			&hadoopyarn.URLProto{Scheme: proto.String("hdfs"), Host: proto.String("[::1]"), Port: proto.Int32(9000), File: proto.String(file)},
			"hdfs://[::1]:9000"},
		{"file:///",
			&hadoopyarn.URLProto{Scheme: proto.String("file"), Port: proto.Int32(-1), File: proto.String(file)},
			"file://"},
	} {
		u, err := url.Parse(tc.fs)
		if err != nil {
			t.Fatal(err)
		}
		o, err := newOrigin(u)
		if err != nil {
			t.Fatalf("newOrigin(%s): %v", tc.fs, err)
		}
		if got := o.resourceURL(file); !proto.Equal(got, tc.want) {
			t.Errorf("%s: resourceURL = %v, want %v", tc.fs, got, tc.want)
		}
		if got := o.String(); got != tc.prefix {
			t.Errorf("%s: String = %q, want %q", tc.fs, got, tc.prefix)
		}
	}
}

func TestOriginRefusesABadPort(t *testing.T) {
	u, err := url.Parse("hdfs://nn:70000")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := newOrigin(u); err == nil || !strings.Contains(err.Error(), `port "70000"`) {
		t.Fatalf("newOrigin(hdfs://nn:70000) = %v, want a port error", err)
	}
}
