package executor

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/executor/wire"
)

func TestAcceleratorsTravelInTheLaunchVariables(t *testing.T) {
	l := Launch{ExecutorID: "c1", Cores: 1, DriverAddress: "h:1", LogDir: "/l", SecretFrom: "stdin",
		Accels: []Accelerator{{Name: "fpga", Amount: 2, AMIndices: []string{"0", "1"}, DiscoveryScript: "/opt/fpga.sh"}, {Name: "tpu_v4", Amount: 1, Addresses: []string{"t"}}}}
	env := l.Env()
	for k, want := range map[string]string{"SPINDLE_EXECUTOR_ACCELERATORS": "fpga=2,tpu_v4=1", "SPINDLE_EXECUTOR_AM_FPGA_INDICES": "0,1",
		"SPINDLE_EXECUTOR_FPGA_DISCOVERY_SCRIPT": "/opt/fpga.sh", "SPINDLE_EXECUTOR_TPU_V4_ADDRESSES": "t"} {
		if env[k] != want {
			t.Errorf("%s=%q, want %q", k, env[k], want)
		}
	}
	back, err := LaunchFromEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Accels, l.Accels) {
		t.Errorf("read back %+v, want %+v", back.Accels, l.Accels)
	}
}

func TestAcceleratorLaunchVariablesRefuseWhatIsMalformed(t *testing.T) {
	for list, want := range map[string]string{
		"fpga":          "want NAME=N",
		"fpga=0":        "want NAME=N",
		"fpga=x":        "want NAME=N",
		"FPGA=1":        `resource name "FPGA"`,
		"gpu=1":         "gpu has its own variables",
		"fpga=1,fpga=2": "fpga given twice",
	} {
		env := map[string]string{"SPINDLE_EXECUTOR_ID": "c", "SPINDLE_DRIVER_ADDRESS": "h:1", "SPINDLE_EXECUTOR_LOG_DIR": "/l",
			"SPINDLE_SECRET_FROM": "stdin", "SPINDLE_EXECUTOR_CORES": "1", "SPINDLE_EXECUTOR_ACCELERATORS": list}
		_, err := LaunchFromEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", list, err, want)
		}
	}
}

func TestDiscoverAcceleratorsFromEachSourceInTurn(t *testing.T) {
	fpgaScript := script(t, `echo '{"name":"fpga","addresses":["s0","s1","s2"]}'`)
	resources := writeFile(t, "res.json", `[{"id":{"componentName":"spindle.executor","resourceName":"fpga"},"addresses":["r0","r1"]}]`, 0o644)
	for _, c := range []struct {
		name    string
		a       Accelerator
		environ []string
		want    []string
		err     string
	}{
		{"launcher's list first", Accelerator{Name: "fpga", Amount: 1, Addresses: []string{"l0"}, DiscoveryScript: fpgaScript}, nil, []string{"l0"}, ""},
		{"then the resources file", Accelerator{Name: "fpga", Amount: 2, DiscoveryScript: fpgaScript}, []string{EnvExecutorResourcesFile + "=" + resources}, []string{"r0", "r1"}, ""},
		{"then the script, the first amount", Accelerator{Name: "fpga", Amount: 2, DiscoveryScript: fpgaScript, AMIndices: []string{"0", "1"}}, nil, []string{"s0", "s1"}, ""},
		{"then the AM's indices", Accelerator{Name: "fpga", Amount: 2, AMIndices: []string{"0", "1"}}, nil, []string{"0", "1"}, ""},
		{"one short", Accelerator{Name: "fpga", Amount: 3, AMIndices: []string{"0", "1"}}, nil, nil, `found 2 fpga address(es) ["0" "1"] from SPINDLE_EXECUTOR_AM_FPGA_INDICES (the ApplicationMaster's indices); want 3`},
		{"nowhere", Accelerator{Name: "tpu", Amount: 1}, nil, nil, "found 0 tpu address(es) [] from nowhere (no SPINDLE_EXECUTOR_TPU_ADDRESSES"},
		{"a script naming another resource", Accelerator{Name: "tpu", Amount: 1, DiscoveryScript: fpgaScript}, nil, nil, `tpu: discovery script ` + fpgaScript + `: reported resource "fpga", want "tpu"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := DiscoverAccelerators([]Accelerator{c.a}, envOf(c.environ...), 0)
			if c.err != "" {
				wantErr(t, err, c.err)
				return
			}
			if err != nil || len(got) != 1 || got[0].GetName() != c.a.Name || !reflect.DeepEqual(got[0].GetAddresses(), c.want) {
				t.Errorf("got %v, %v; want %s %q", got, err, c.a.Name, c.want)
			}
		})
	}
}

func TestTasksSeeEachOfTheExecutorsAcceleratorsAddresses(t *testing.T) {
	have := []*wire.Resource{{Name: "fpga", Addresses: []string{"0", "1"}}, {Name: "tpu", Addresses: []string{"t"}}}
	got := acceleratorVariables(have, &wire.Launch{Resources: []*wire.Resource{{Name: "fpga", Addresses: []string{"1"}}}})
	if want := []string{"SPINDLE_FPGA_ADDRESSES=1", "SPINDLE_TPU_ADDRESSES="}; !reflect.DeepEqual(got, want) {
		t.Errorf("variables %q, want %q", got, want)
	}
}
