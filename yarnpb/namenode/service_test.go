package namenode

import (
	"context"
	"testing"
)

func TestService(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ addr, ns, want string }{
		{"nn1.example.com:8020", "ns1", "ha-hdfs:ns1"},
		{"10.1.2.3:9000", "", "10.1.2.3:9000"},
		{"localhost:8020", "", "127.0.0.1:8020"},
	} {
		if got, err := Service(ctx, tc.addr, tc.ns); err != nil || got != tc.want {
			t.Errorf("Service(%q, %q) = %q, %v; want %q", tc.addr, tc.ns, got, err, tc.want)
		}
	}
	if _, err := Service(ctx, "no-port", ""); err == nil {
		t.Error("Service of an address without a port succeeded")
	}
}
