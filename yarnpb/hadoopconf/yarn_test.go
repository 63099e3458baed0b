package hadoopconf

import (
	"reflect"
	"strings"
	"testing"
)

func TestRMAddressesWithoutHA(t *testing.T) {
	tests := []struct {
		name    string
		props   string
		service RMService
		want    string
	}{
		{"defaults", "", RMAddress, "0.0.0.0:8032"},
		{"default scheduler", "", RMSchedulerAddress, "0.0.0.0:8030"},
		{"default tracker", "", RMResourceTrackerAddress, "0.0.0.0:8031"},
		{"default admin", "", RMAdminAddress, "0.0.0.0:8033"},
		{"default webapp", "", RMWebappAddress, "0.0.0.0:8088"},
		{"default https", "", RMWebappHTTPSAddress, "0.0.0.0:8090"},
		{"hostname", prop("yarn.resourcemanager.hostname", "rm"), RMSchedulerAddress, "rm:8030"},
		{"explicit address wins", prop("yarn.resourcemanager.hostname", "rm") + prop("yarn.resourcemanager.address", "other:1234"), RMAddress, "other:1234"},
		{"host only gets default port", prop("yarn.resourcemanager.address", " other "), RMAddress, "other:8032"},
		{"address from hostname reference", prop("yarn.resourcemanager.hostname", "rm") + prop("yarn.resourcemanager.admin.address", "${yarn.resourcemanager.hostname}:9"), RMAdminAddress, "rm:9"},
		{"scheme", prop("yarn.resourcemanager.webapp.address", "http://rm:80/"), RMWebappAddress, "rm:80"},
		{"ipv6", prop("yarn.resourcemanager.address", "[::1]:5"), RMAddress, "[::1]:5"},
		{"ipv6 host only", prop("yarn.resourcemanager.address", "[::1]"), RMAddress, "[::1]:8032"},
		{"per-id keys ignored without HA", prop("yarn.resourcemanager.address.rm1", "x:1"), RMAddress, "0.0.0.0:8032"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := confOf(t, Env{}, site(tt.props))
			got, err := c.RMAddresses(tt.service)
			want := []RMEndpoint{{Address: tt.want, Key: string(tt.service)}}
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("RMAddresses = %+v, %v; want %+v", got, err, want)
			}
		})
	}
}

func TestRMAddressesHA(t *testing.T) {
	ha := prop("yarn.resourcemanager.ha.enabled", "true")
	tests := []struct {
		name    string
		props   string
		service RMService
		want    []RMEndpoint
	}{
		{"hostnames", ha + prop("yarn.resourcemanager.ha.rm-ids", "rm1,rm2") +
			prop("yarn.resourcemanager.hostname.rm1", "a") + prop("yarn.resourcemanager.hostname.rm2", "b"),
			RMAddress, []RMEndpoint{
				{"rm1", "a:8032", "yarn.resourcemanager.hostname.rm1"},
				{"rm2", "b:8032", "yarn.resourcemanager.hostname.rm2"}}},
		{"address wins over hostname, order kept", ha + prop("yarn.resourcemanager.ha.rm-ids", " z , a ,z") +
			prop("yarn.resourcemanager.hostname.z", "zh") + prop("yarn.resourcemanager.scheduler.address.z", "zs:1") +
			prop("yarn.resourcemanager.scheduler.address.a", "as"),
			RMSchedulerAddress, []RMEndpoint{
				{"z", "zs:1", "yarn.resourcemanager.scheduler.address.z"},
				{"a", "as:8030", "yarn.resourcemanager.scheduler.address.a"}}},
		{"webapp https port", ha + prop("yarn.resourcemanager.ha.rm-ids", "r") + prop("yarn.resourcemanager.hostname.r", "h"),
			RMWebappHTTPSAddress, []RMEndpoint{{"r", "h:8090", "yarn.resourcemanager.hostname.r"}}},
		{"plain keys ignored with HA", ha + prop("yarn.resourcemanager.ha.rm-ids", "r") + prop("yarn.resourcemanager.hostname.r", "h") +
			prop("yarn.resourcemanager.address", "plain:1"),
			RMAddress, []RMEndpoint{{"r", "h:8032", "yarn.resourcemanager.hostname.r"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := confOf(t, Env{}, site(tt.props))
			got, err := c.RMAddresses(tt.service)
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("RMAddresses = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestRMAddressesErrors(t *testing.T) {
	ha := prop("yarn.resourcemanager.ha.enabled", "true")
	tests := []struct {
		name    string
		props   string
		service RMService
		msg     []string
	}{
		{"unknown service", "", RMService("yarn.nodemanager.address"), []string{"not a ResourceManager address key"}},
		{"bad ha flag", prop("yarn.resourcemanager.ha.enabled", "yes"), RMAddress, []string{"yarn.resourcemanager.ha.enabled", `"yes"`}},
		{"ha without ids", ha, RMAddress, []string{"yarn.resourcemanager.ha.rm-ids names no ResourceManager"}},
		{"ha with empty ids", ha + prop("yarn.resourcemanager.ha.rm-ids", " , "), RMAddress, []string{"yarn.resourcemanager.ha.rm-ids names no ResourceManager"}},
		{"id without address", ha + prop("yarn.resourcemanager.ha.rm-ids", "rm1,rm2") + prop("yarn.resourcemanager.hostname.rm1", "a"), RMAdminAddress,
			[]string{"yarn.resourcemanager.hostname.rm2 or yarn.resourcemanager.admin.address.rm2 needs to be set"}},
		{"id with dot", ha + prop("yarn.resourcemanager.ha.rm-ids", ".rm1"), RMAddress, []string{"yarn.resourcemanager.ha.rm-ids", `".rm1"`}},
		{"hostname with port", ha + prop("yarn.resourcemanager.ha.rm-ids", "r") + prop("yarn.resourcemanager.hostname.r", "h:1"), RMAddress,
			[]string{"yarn.resourcemanager.hostname.r", "takes no port"}},
		{"bad address", prop("yarn.resourcemanager.address", "rm:port"), RMAddress, []string{"yarn.resourcemanager.address", `"rm:port"`, "r1.xml:3"}},
		{"port out of range", prop("yarn.resourcemanager.address", "rm:70000"), RMAddress, []string{"port out of range"}},
		{"path without scheme", prop("yarn.resourcemanager.address", "rm:1/x"), RMAddress, []string{"not a host:port"}},
		{"empty address", `<property name="yarn.resourcemanager.address" value=""/>`, RMAddress, []string{"not a host:port"}},
		{"unresolved hostname", prop("yarn.resourcemanager.address", "${nohost}:1"), RMAddress, []string{"${nohost}:1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := confOf(t, Env{}, site(tt.props))
			got, err := c.RMAddresses(tt.service)
			if err == nil {
				t.Fatalf("RMAddresses = %+v, want an error", got)
			}
			for _, m := range tt.msg {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("err = %v, want it to say %q", err, m)
				}
			}
		})
	}
}

func TestRMServiceDefaultPort(t *testing.T) {
	if RMSchedulerAddress.DefaultPort() != 8030 || RMService("x").DefaultPort() != 0 {
		t.Error("DefaultPort wrong")
	}
}
