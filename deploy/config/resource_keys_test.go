package config

import (
	"maps"
	"reflect"
	"strings"
	"testing"
)

func TestResourceKeysForAnyName(t *testing.T) {
	c := mustLoad(t, `spark.executor.resource.fpga.amount 2
spindle.executor.resource.fpga.discoveryScript /opt/fpga.sh
spark.executor.resource.fpga.vendor xilinx.com
spindle.task.resource.fpga.amount=1
spindle.worker.resource.fpga.addresses=0,1
spindle.worker.resource.tpu_v4.discoveryScript=/opt/tpu.sh
spindle.executor.resource.gpu.vendor=nvidia.com
spindle.executor.resource.gpu.amount=1`)
	want := []Resource{
		{Name: "fpga", ExecutorAmount: 2, DiscoveryScript: "/opt/fpga.sh", Vendor: "xilinx.com", TaskAmount: 1, WorkerAddresses: "0,1"},
		{Name: "tpu_v4", WorkerDiscoveryScript: "/opt/tpu.sh"},
	}
	if got := c.Resources(); !reflect.DeepEqual(got, want) {
		t.Errorf("Resources() = %+v, want %+v", got, want)
	}
	// gpu keeps its own keys.
	if n, _ := c.Int("spindle.executor.resource.gpu.amount"); n != 1 {
		t.Errorf("gpu amount %d", n)
	}
	// They travel with the settings, as the AM reads them back.
	var listed []string
	for _, s := range c.Settings() {
		if strings.Contains(s.Key, ".resource.fpga.") {
			listed = append(listed, s.Key)
		}
	}
	if len(listed) != 5 {
		t.Errorf("settings list %q", listed)
	}
}

func TestResourceKeysRefuseWhatIsMalformed(t *testing.T) {
	for line, want := range map[string]string{
		"spindle.executor.resource.FPGA.amount 1":      `resource name "FPGA": want lower-case letters`,
		"spindle.executor.resource.my-fpga.amount 1":   `resource name "my-fpga"`,
		"spindle.executor.resource.f.p.amount 1":       `resource name "f.p"`,
		"spindle.executor.resource..amount 1":          `resource name ""`,
		"spark.task.resource.9fpga.amount 1":           `resource name "9fpga"`,
		"spindle.executor.resource.fpga.amount -1":     "must be at least 0",
		"spindle.executor.resource.fpga.amount 1.5":    "spindle.executor.resource.fpga.amount",
		"spindle.task.resource.fpga.amount 0.5":        "want a whole number: only gpu is shared in fractions",
		"spindle.executor.resource.fpga.amout 1":       "unknown key",
		"spindle.task.resource.fpga.discoveryScript x": "unknown key",
		"spindle.worker.resource.fpga.amount 1":        "unknown key",
		"spindle.yarn.resourceMapping tpu":             `"tpu": want NAME=TYPE`,
		"spindle.yarn.resourceMapping TPU=x.com/tpu":   `resource name "TPU"`,
		"spindle.yarn.resourceMapping a=x/a,a=x/b":     "a is mapped twice",
		"spindle.yarn.resourceMapping tpu=x.com/t pu":  `want NAME=TYPE`,
	} {
		_, err := Load([]PropertiesFile{{Name: "f.conf", Text: strings.NewReader(line + "\n")}}, nil)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "f.conf:1") {
			t.Errorf("%s: %v, want an error at f.conf:1 saying %q", line, err, want)
		}
	}
}

func TestResourceNameAtItsLength(t *testing.T) {
	ok := "a" + strings.Repeat("b", 31)
	if err := CheckResourceName(ok); err != nil {
		t.Errorf("32 characters: %v", err)
	}
	if err := CheckResourceName(ok + "c"); err == nil {
		t.Error("33 characters accepted")
	}
}

func TestResourceMapping(t *testing.T) {
	m, err := ParseResourceMapping(" tpu=example.com/tpu, fpga=acme.com/fpga")
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(m, map[string]string{"tpu": "example.com/tpu", "fpga": "acme.com/fpga"}) {
		t.Errorf("mapping %v", m)
	}
	for name, want := range map[string]string{"gpu": "yarn.io/gpu", "fpga": "acme.com/fpga", "tpu": "example.com/tpu", "vpu": ""} {
		if got := YARNResourceType(m, name); got != want {
			t.Errorf("%s maps to %q, want %q", name, got, want)
		}
	}
	if got := YARNResourceType(nil, "fpga"); got != "yarn.io/fpga" {
		t.Errorf("fpga maps to %q without a mapping", got)
	}
}
