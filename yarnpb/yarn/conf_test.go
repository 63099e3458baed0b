package yarn_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/sasl"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

func confWith(t *testing.T, core, site string) *hadoopconf.Conf {
	t.Helper()
	dir := t.TempDir()
	write := func(name, props string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("<configuration>"+props+"</configuration>"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("core-site.xml", core)
	write("yarn-site.xml", site)
	conf, err := hadoopconf.Load(hadoopconf.Env{Lookup: func(string) (string, bool) { return "", false }}, dir)
	if err != nil {
		t.Fatal(err)
	}
	return conf
}

func prop(name, value string) string {
	return "<property><name>" + name + "</name><value>" + value + "</value></property>"
}

func TestAddressesFollowRMHAOrder(t *testing.T) {
	conf := confWith(t, "", prop("yarn.resourcemanager.ha.enabled", "true")+
		prop("yarn.resourcemanager.ha.rm-ids", "rm2,rm1")+
		prop("yarn.resourcemanager.hostname.rm1", "rm1.example.com")+
		prop("yarn.resourcemanager.hostname.rm2", "rm2.example.com")+
		prop("yarn.resourcemanager.scheduler.address.rm1", "rm1.example.com:9030"))
	got, err := yarn.Addresses(conf, hadoopconf.RMSchedulerAddress)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"rm2.example.com:8030", "rm1.example.com:9030"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("scheduler addresses %v, want %v", got, want)
	}
	got, _ = yarn.Addresses(conf, hadoopconf.RMAddress)
	if want := []string{"rm2.example.com:8032", "rm1.example.com:8032"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("client addresses %v, want %v", got, want)
	}
}

func TestClientOptionsFromProtection(t *testing.T) {
	opts, err := yarn.ClientOptions(confWith(t, prop("hadoop.rpc.protection", "privacy,integrity"), ""), "alice")
	if err != nil {
		t.Fatal(err)
	}
	if want := []sasl.QOP{sasl.AuthConf, sasl.AuthInt}; !reflect.DeepEqual(opts.Auth.QOPs, want) || opts.Auth.User != "alice" {
		t.Fatalf("options %+v, want user alice with qops %v", opts.Auth, want)
	}
	// Hadoop's default protection is authentication only.
	opts, _ = yarn.ClientOptions(confWith(t, "", ""), "alice")
	if want := []sasl.QOP{sasl.Auth}; !reflect.DeepEqual(opts.Auth.QOPs, want) {
		t.Fatalf("default qops %v, want %v", opts.Auth.QOPs, want)
	}
}

// On a Kerberos cluster the options answer no Kerberos offer by
// themselves: an AM authenticates with its tokens, and a client's login
// adds the GSSAPI answer (package kerberos).
func TestClientOptionsOnKerberos(t *testing.T) {
	opts, err := yarn.ClientOptions(confWith(t, prop("hadoop.security.authentication", "kerberos"), ""), "alice")
	if err != nil || opts.Auth.Kerberos != nil {
		t.Fatalf("options %+v, %v; want no Kerberos answer and no error", opts.Auth, err)
	}
	_, err = yarn.ClientOptions(confWith(t, prop("hadoop.security.authentication", "ldap"), ""), "alice")
	if err == nil || !strings.Contains(err.Error(), "hadoop.security.authentication") {
		t.Fatalf("an unknown method: %v", err)
	}
}
