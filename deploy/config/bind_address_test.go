package config

import (
	"strings"
	"testing"
)

// spindle.driver.bindAddress (spark.driver.bindAddress) takes a host name
// or an IP address, and no port.
func TestBindAddress(t *testing.T) {
	longest := strings.Repeat("a.", 126) + "a" // 253 characters, DNS's limit
	label := strings.Repeat("n", 63)           // a label's limit
	for _, ok := range []string{"0.0.0.0", "::", "10.1.2.3", "fe80::1%eth0", "node-7.rack_2.example.com", "localhost", "node7.", longest, label + ".example.com"} {
		c := mustLoad(t, "spark.driver.bindAddress="+ok)
		if got, err := c.String("spindle.driver.bindAddress"); got != ok || err != nil {
			t.Errorf("%q read as %q, %v", ok, got, err)
		}
	}
	for _, tc := range []struct{ value, want string }{
		{"node7:7077", `test.conf:1: spindle.driver.bindAddress="node7:7077": want a host name or IP address without a port`},
		{"[::1]:80", "without a port"},
		{"-node7", "want a host name or an IP address"},
		{"node7-", "want a host name or an IP address"},
		{"node..7", "want a host name or an IP address"},
		{"http://node7", "want a host name or an IP address"},
		{longest + "a", "want a host name or an IP address"},
		{label + "n.example.com", "want a host name or an IP address"},
	} {
		_, err := loadText("spindle.driver.bindAddress=" + tc.value)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error containing %q", tc.value, err, tc.want)
		}
	}
}
