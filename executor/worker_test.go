package executor

import (
	"slices"
	"testing"
)

func TestWorkerGPUsSources(t *testing.T) {
	file := writeFile(t, "worker.json", `[{"id":{"componentName":"spindle.worker","resourceName":"gpu"},"addresses":["0","1","2","3"]},
		{"id":{"componentName":"spark.executor","resourceName":"gpu"},"addresses":["9"]}]`, 0o644)
	cases := []struct {
		name string
		src  WorkerSources
		want []string
	}{
		{"resources file", WorkerSources{ResourcesFile: file}, []string{"0", "1", "2", "3"}},
		{"discovery script", WorkerSources{DiscoveryScript: gpuScript(t, `"4","5"`), Env: envOf()}, []string{"4", "5"}},
		{"fake addresses", WorkerSources{Addresses: "a, b,c"}, []string{"a", "b", "c"}},
		{"nothing set", WorkerSources{}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := WorkerGPUs(c.src)
			if err != nil || !slices.Equal(got, c.want) {
				t.Fatalf("WorkerGPUs = %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestWorkerGPUsErrors(t *testing.T) {
	_, err := WorkerGPUs(WorkerSources{ResourcesFile: "/x.json", Addresses: "0,1"})
	wantErr(t, err, "spindle.worker.resourcesFile and spindle.worker.resource.gpu.addresses are set; set only one")
	_, err = WorkerGPUs(WorkerSources{DiscoveryScript: "/x.sh", Addresses: "0"})
	wantErr(t, err, "spindle.worker.resource.gpu.discoveryScript and spindle.worker.resource.gpu.addresses")
	_, err = WorkerGPUs(WorkerSources{Addresses: "0,1,0"})
	wantErr(t, err, "spindle.worker.resource.gpu.addresses", `"0" is listed twice`)
	_, err = WorkerGPUs(WorkerSources{DiscoveryScript: script(t, "exit 2"), Env: envOf()})
	wantErr(t, err, "discovery script", "exit status 2")
	_, err = WorkerGPUs(WorkerSources{ResourcesFile: "/nonexistent.json"})
	wantErr(t, err, "/nonexistent.json")
}

func TestSplitDisjoint(t *testing.T) {
	addrs := []string{"0", "1", "2", "3", "4"}
	got, err := SplitDisjoint(addrs, 2, 2)
	if err != nil || len(got) != 2 || !slices.Equal(got[0], []string{"0", "1"}) || !slices.Equal(got[1], []string{"2", "3"}) {
		t.Fatalf("SplitDisjoint = %q, %v", got, err)
	}
	// Appending to one executor's list must not reach into the next's.
	_ = append(got[0], "x")
	if !slices.Equal(got[1], []string{"2", "3"}) {
		t.Errorf("append to got[0] changed got[1] to %q", got[1])
	}
	got, err = SplitDisjoint(nil, 3, 0)
	if err != nil || len(got) != 3 || len(got[0]) != 0 {
		t.Fatalf("no GPUs each: %q, %v", got, err)
	}
	_, err = SplitDisjoint(addrs[:4], 3, 2)
	wantErr(t, err, "3 executors × 2 GPUs each need 6 GPU addresses; the worker has 4")
	_, err = SplitDisjoint(addrs, -1, 1)
	wantErr(t, err, "negative")
	_, err = SplitDisjoint([]string{"0", "0"}, 2, 1)
	wantErr(t, err, "listed twice")
}
