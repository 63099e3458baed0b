package executor

import (
	"slices"
	"testing"
)

func TestDiscoverGPUsPriority(t *testing.T) {
	script := gpuScript(t, `"6","7"`)
	file := writeFile(t, "res.json", `[
		{"id":{"componentName":"spark.worker","resourceName":"gpu"},"addresses":["0","1","2","3"]},
		{"id":{"componentName":"spark.executor","resourceName":"fpga"},"addresses":["f0"]},
		{"id":{"componentName":"spark.executor","resourceName":"gpu"},"addresses":["8","9"]}]`, 0o644)
	cases := []struct {
		name   string
		env    []string
		script string
		want   []string
	}{
		{"launcher list beats all", []string{EnvExecutorGPUAddresses + "=4,5", "NVIDIA_VISIBLE_DEVICES=0,1", "CUDA_VISIBLE_DEVICES=2,3"}, script, []string{"4", "5"}},
		{"launcher file beats container", []string{EnvExecutorResourcesFile + "=" + file, "NVIDIA_VISIBLE_DEVICES=0,1"}, script, []string{"8", "9"}},
		{"NVIDIA before CUDA, UUIDs", []string{"NVIDIA_VISIBLE_DEVICES=GPU-aa11,GPU-bb22", "CUDA_VISIBLE_DEVICES=2,3"}, script, []string{"GPU-aa11", "GPU-bb22"}},
		{"NVIDIA all defers to CUDA", []string{"NVIDIA_VISIBLE_DEVICES=all", "CUDA_VISIBLE_DEVICES=2, 3"}, script, []string{"2", "3"}},
		{"NVIDIA all defers to the script", []string{"NVIDIA_VISIBLE_DEVICES=all"}, script, []string{"6", "7"}},
		{"CUDA beats the script", []string{"CUDA_VISIBLE_DEVICES=2,3"}, script, []string{"2", "3"}},
		{"script last", nil, script, []string{"6", "7"}},
		{"more than wanted: the first ones", []string{"CUDA_VISIBLE_DEVICES=3,1,0"}, "", []string{"3", "1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DiscoverGPUs(Sources{Env: envOf(c.env...), DiscoveryScript: c.script}, 2)
			if err != nil || !slices.Equal(got, c.want) {
				t.Fatalf("DiscoverGPUs = %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestDiscoverGPUsErrors(t *testing.T) {
	okScript := gpuScript(t, `"6","7"`)
	cases := []struct {
		name   string
		env    []string
		script string
		want   []string
	}{
		{"fewer than wanted", []string{"CUDA_VISIBLE_DEVICES=3"}, "", []string{`found 1 GPU address(es) ["3"] from CUDA_VISIBLE_DEVICES; want 2`}},
		{"launcher gave too few", []string{EnvExecutorGPUAddresses + "=0"}, okScript, []string{"found 1", EnvExecutorGPUAddresses, "want 2"}},
		{"launcher gave none", []string{EnvExecutorGPUAddresses + "="}, okScript, []string{"found 0", EnvExecutorGPUAddresses, "want 2"}},
		{"none is final", []string{"NVIDIA_VISIBLE_DEVICES=none"}, okScript, []string{`found 0 GPU address(es) [] from NVIDIA_VISIBLE_DEVICES="none"; want 2`}},
		{"void is final", []string{"NVIDIA_VISIBLE_DEVICES=void", "CUDA_VISIBLE_DEVICES=0,1"}, okScript, []string{`NVIDIA_VISIBLE_DEVICES="void"`}},
		{"empty is final", []string{"NVIDIA_VISIBLE_DEVICES="}, okScript, []string{`NVIDIA_VISIBLE_DEVICES=""`}},
		{"CUDA -1 hides all", []string{"CUDA_VISIBLE_DEVICES=-1"}, okScript, []string{`CUDA_VISIBLE_DEVICES="-1"`}},
		{"all without a script", []string{"NVIDIA_VISIBLE_DEVICES=all"}, "", []string{"found 0", "NVIDIA_VISIBLE_DEVICES=all", "spindle.executor.resource.gpu.discoveryScript", "want 2"}},
		{"nothing at all", nil, "", []string{"found 0", "from nowhere", "want 2"}},
		{"both launcher variables", []string{EnvExecutorGPUAddresses + "=0,1", EnvExecutorResourcesFile + "=/x.json"}, "", []string{EnvExecutorGPUAddresses, EnvExecutorResourcesFile, "a launcher sets one"}},
		{"duplicate in launcher list", []string{EnvExecutorGPUAddresses + "=0,1,0"}, "", []string{EnvExecutorGPUAddresses, `"0" is listed twice`}},
		{"empty entry in NVIDIA list", []string{"NVIDIA_VISIBLE_DEVICES=0,,1"}, "", []string{"NVIDIA_VISIBLE_DEVICES", "address 1 is empty"}},
		{"duplicate in CUDA list", []string{"CUDA_VISIBLE_DEVICES=1,1"}, "", []string{"CUDA_VISIBLE_DEVICES", "listed twice"}},
		{"missing resources file", []string{EnvExecutorResourcesFile + "=/nonexistent/res.json"}, "", []string{"/nonexistent/res.json", "no such file"}},
		{"duplicate from script", nil, gpuScript(t, `"0","0"`), []string{"discovery script", "listed twice"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DiscoverGPUs(Sources{Env: envOf(c.env...), DiscoveryScript: c.script}, 2)
			if got != nil {
				t.Errorf("got addresses %q with an error", got)
			}
			wantErr(t, err, c.want...)
		})
	}
}

func TestDiscoverGPUsWantZeroLooksNowhere(t *testing.T) {
	failing := script(t, "exit 1")
	got, err := DiscoverGPUs(Sources{Env: envOf(), DiscoveryScript: failing}, 0)
	if got != nil || err != nil {
		t.Fatalf("DiscoverGPUs(want 0) = %q, %v; want nothing", got, err)
	}
	_, err = DiscoverGPUs(Sources{Env: envOf()}, -1)
	wantErr(t, err, "negative")
}

func TestDiscoverGPUsExecutorFileComponents(t *testing.T) {
	file := writeFile(t, "res.json", `[{"id":{"componentName":"spindle.executor","resourceName":"gpu"},"addresses":["GPU-1"]},
		{"id":{"componentName":"spark.driver","resourceName":"gpu"},"addresses":["GPU-2"]}]`, 0o644)
	got, err := DiscoverGPUs(Sources{Env: envOf(EnvExecutorResourcesFile + "=" + file)}, 1)
	if err != nil || !slices.Equal(got, []string{"GPU-1"}) {
		t.Fatalf("got %q, %v", got, err)
	}
	// A worker's file names no executor GPUs: the source is final, so 0.
	worker := writeFile(t, "w.json", `[{"id":{"componentName":"spark.worker","resourceName":"gpu"},"addresses":["0"]}]`, 0o644)
	_, err = DiscoverGPUs(Sources{Env: envOf(EnvExecutorResourcesFile+"="+worker, "CUDA_VISIBLE_DEVICES=0")}, 1)
	wantErr(t, err, "found 0", worker, "want 1")
}
