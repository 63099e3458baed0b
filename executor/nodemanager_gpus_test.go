package executor

import (
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const ourContainer = "container_e03_1700000000000_0001_01_000002"

// Answers of a NodeManager, in the shapes of nodemanager_gpus.go: this
// container holds indices 3 and 1 (listed out of order) among others'.
const (
	// Hadoop up to 3.4: bare, with index and minorNumber.
	nmAnswerIndexed = `{"gpuDeviceInformation":{"driverVersion":"550.54.15"},"resourceValue":0,
		"totalGpuDevices":[{"index":0,"minorNumber":0},{"index":1,"minorNumber":1},{"index":2,"minorNumber":2},{"index":3,"minorNumber":3}],
		"assignedGpuDevices":[
			{"index":0,"minorNumber":0,"containerId":"container_e03_1700000000000_0002_01_000007"},
			{"index":3,"minorNumber":3,"containerId":"` + ourContainer + `"},
			{"index":2,"minorNumber":2,"containerId":"container_e03_1700000000000_0001_01_000003"},
			{"index":1,"minorNumber":1,"containerId":"` + ourContainer + `"}]}`
	// Builds between 3.4 and 3.5 wrapped it.
	nmAnswerWrapped = `{"nmGpuResourceInfo":{"totalGpuDevices":[{"index":0,"minorNumber":0},{"index":1,"minorNumber":1}],
		"assignedGpuDevices":[{"index":1,"minorNumber":1,"containerId":"` + ourContainer + `"},
			{"index":3,"minorNumber":3,"containerId":"` + ourContainer + `"}]}}`
	// Hadoop 3.5.0 (MOXy): no index, no minorNumber.
	nmAnswer350 = `{"type":"NMGpuResourceInfo","resourceValue":0,"gpuDeviceInformation":{"driver_version":"550.54.15"},
		"totalGpuDevices":[{},{},{},{}],
		"assignedGpuDevices":[{"containerId":"` + ourContainer + `"},{"containerId":"` + ourContainer + `"},
			{"containerId":"container_e03_1700000000000_0001_01_000003"}]}`
	// Other containers' GPUs only.
	nmAnswerOthers = `{"assignedGpuDevices":[{"index":0,"minorNumber":0,"containerId":"container_e03_1700000000000_0002_01_000007"},
		{"index":2,"minorNumber":2,"containerId":"container_e03_1700000000000_0001_01_000003"}]}`
	// No GPU plugin on the NodeManager (the mini cluster's case): 200, empty.
	nmAnswerNoPlugin = `{"nmResourceInfo":{"resourceValue":0}}`
)

// nodeManager is an httptest server standing in for a NodeManager that
// answers status and body to every request. It returns the environment a
// YARN container on its node has, and the request URIs it was sent.
func nodeManager(t *testing.T, status int, body string) (env []string, uris func() []string) {
	t.Helper()
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.RequestURI)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return yarnEnv(t, srv.Listener.Addr().String()), func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}
}

// yarnEnv is the NodeManager part of a YARN container's environment, for
// a NodeManager web server at addr.
func yarnEnv(t *testing.T, addr string) []string {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	return []string{"CONTAINER_ID=" + ourContainer, "NM_HOST=" + host, "NM_HTTP_PORT=" + port}
}

// closedAddr is an address on which nothing listens.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestDiscoverGPUsOrderInYARN(t *testing.T) {
	script := gpuScript(t, `"6","7"`)
	file := writeFile(t, "res.json", `[{"id":{"componentName":"spark.executor","resourceName":"gpu"},"addresses":["8","9"]}]`, 0o644)
	indexed, _ := nodeManager(t, 200, nmAnswerIndexed)
	wrapped, _ := nodeManager(t, 200, nmAnswerWrapped)
	notFound, _ := nodeManager(t, 404, "")
	others, _ := nodeManager(t, 200, nmAnswerOthers)
	moxy, _ := nodeManager(t, 200, nmAnswer350)
	noPlugin, _ := nodeManager(t, 200, nmAnswerNoPlugin)
	refused := yarnEnv(t, closedAddr(t))
	am := EnvAMGPUIndices + "=4,5"
	docker := EnvContainerRuntime + "=docker"
	with := func(base []string, kv ...string) []string { return append(slices.Clone(base), kv...) }
	cases := []struct {
		name   string
		env    []string
		script string
		want   []string
	}{
		{"launcher list beats the NodeManager", with(indexed, EnvExecutorGPUAddresses+"=8,9", am), script, []string{"8", "9"}},
		{"launcher file beats the NodeManager", with(indexed, EnvExecutorResourcesFile+"="+file, am), script, []string{"8", "9"}},
		{"NodeManager beats container, script and AM", with(indexed, "NVIDIA_VISIBLE_DEVICES=0,2", "CUDA_VISIBLE_DEVICES=0,2", am), script, []string{"1", "3"}},
		{"NodeManager, wrapped answer", with(wrapped, "NVIDIA_VISIBLE_DEVICES=0,2", am), script, []string{"1", "3"}},
		{"404: container beats AM", with(notFound, "NVIDIA_VISIBLE_DEVICES=0,2", am), script, []string{"0", "2"}},
		{"404: script beats AM", with(notFound, am), script, []string{"6", "7"}},
		{"other containers only: CUDA beats AM", with(others, "CUDA_VISIBLE_DEVICES=2,0", am), "", []string{"2", "0"}},
		{"3.5 answer without indices: container beats AM", with(moxy, "NVIDIA_VISIBLE_DEVICES=GPU-aa,GPU-bb", am), "", []string{"GPU-aa", "GPU-bb"}},
		{"connection refused: script beats AM", with(refused, am), script, []string{"6", "7"}},
		{"no GPU plugin: AM last", with(noPlugin, am), "", []string{"4", "5"}},
		{"404 and NVIDIA all: AM last", with(notFound, "NVIDIA_VISIBLE_DEVICES=all", am), "", []string{"4", "5"}},
		{"not in YARN: AM last", []string{am}, "", []string{"4", "5"}},
		{"Docker: the plugin's NVIDIA beats the NodeManager, as CUDA numbers them inside", with(indexed, docker, "NVIDIA_VISIBLE_DEVICES=2,3", am), script, []string{"0", "1"}},
		{"Docker, NVIDIA all: the NodeManager", with(indexed, docker, "NVIDIA_VISIBLE_DEVICES=all", am), script, []string{"1", "3"}},
		{"Docker, no variable: the NodeManager", with(indexed, docker, am), script, []string{"1", "3"}},
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

// In a Docker container the plugin's NVIDIA_VISIBLE_DEVICES decides: the
// NodeManager, maybe out of the container's network's reach, is not asked.
func TestDiscoverGPUsInDockerAsksNoNodeManager(t *testing.T) {
	env, uris := nodeManager(t, 200, nmAnswerIndexed)
	env = append(env, EnvContainerRuntime+"=docker", "NVIDIA_VISIBLE_DEVICES=GPU-aa,GPU-bb")
	got, err := DiscoverGPUs(Sources{Env: envOf(env...)}, 2)
	if err != nil || !slices.Equal(got, []string{"GPU-aa", "GPU-bb"}) {
		t.Fatalf("DiscoverGPUs = %q, %v; want the plugin's", got, err)
	}
	if u := uris(); len(u) != 0 {
		t.Errorf("asked the NodeManager %q", u)
	}
	_, err = DiscoverGPUs(Sources{Env: envOf(append(env, "NVIDIA_VISIBLE_DEVICES=GPU-aa")...)}, 2)
	if err == nil || !strings.Contains(err.Error(), "from NVIDIA_VISIBLE_DEVICES (set by the NodeManager in its Docker container)") {
		t.Errorf("one GPU for two: %v", err)
	}
}

func TestDiscoverGPUsAMIndicesOnlyWhenNothingElse(t *testing.T) {
	notFound, _ := nodeManager(t, 404, "")
	am := EnvAMGPUIndices + "=4,5"
	// A container variable that says "none" is an answer: the AM's indices
	// must not give the executor GPUs its container cannot use.
	_, err := DiscoverGPUs(Sources{Env: envOf(append(notFound, "NVIDIA_VISIBLE_DEVICES=none", am)...)}, 2)
	wantErr(t, err, `found 0 GPU address(es) [] from NVIDIA_VISIBLE_DEVICES="none"; want 2`)
	// Too few AM indices name the variable and why the NodeManager gave none.
	_, err = DiscoverGPUs(Sources{Env: envOf(append(notFound, EnvAMGPUIndices+"=4")...)}, 2)
	wantErr(t, err, "found 1", EnvAMGPUIndices, "404 Not Found", "want 2")
	_, err = DiscoverGPUs(Sources{Env: envOf(EnvAMGPUIndices + "=4,4")}, 2)
	wantErr(t, err, EnvAMGPUIndices, "listed twice")
}

func TestNodeManagerRequest(t *testing.T) {
	env, uris := nodeManager(t, 200, nmAnswerIndexed)
	if _, err := DiscoverGPUs(Sources{Env: envOf(env...)}, 1); err != nil {
		t.Fatal(err)
	}
	// The slash of yarn.io/gpu must reach the NodeManager encoded.
	if got, want := uris(), []string{"GET /ws/v1/node/resources/yarn.io%2Fgpu"}; !slices.Equal(got, want) {
		t.Fatalf("requests %q; want %q", got, want)
	}
	// want 0 asks nobody.
	if _, err := DiscoverGPUs(Sources{Env: envOf(env...)}, 0); err != nil || len(uris()) != 1 {
		t.Fatalf("want 0: err %v, requests %q", err, uris())
	}
}

// TestNodeManagerFallsThrough checks that each answer with nothing usable
// passes to the next sources, and that the "found nothing" message says
// why the NodeManager gave nothing.
func TestNodeManagerFallsThrough(t *testing.T) {
	notFound, _ := nodeManager(t, 404, "")
	unauthorized, _ := nodeManager(t, 401, "")
	others, _ := nodeManager(t, 200, nmAnswerOthers)
	moxy, _ := nodeManager(t, 200, nmAnswer350)
	noPlugin, _ := nodeManager(t, 200, nmAnswerNoPlugin)
	empty, _ := nodeManager(t, 200, "{}")
	refused := yarnEnv(t, closedAddr(t))
	port := func(env []string) string { return strings.TrimPrefix(env[2], "NM_HTTP_PORT=") }
	cases := []struct {
		name string
		env  []string
		want []string
	}{
		{"404", notFound, []string{"found 0", "from nowhere", "http://127.0.0.1:" + port(notFound) + nodeManagerGPUPath + " answered 404 Not Found", EnvAMGPUIndices, "want 2"}},
		{"401", unauthorized, []string{"answered 401"}},
		{"other containers only", others, []string{"assigns container " + ourContainer + " no GPUs (2 assignment(s), all other containers')"}},
		{"3.5 answer without indices", moxy, []string{"assigns container " + ourContainer + " 2 GPU(s) without naming them"}},
		{"no GPU plugin", noPlugin, []string{"assigns no GPUs on this node", "yarn.nodemanager.resource-plugins"}},
		{"empty object", empty, []string{"assigns no GPUs on this node"}},
		{"connection refused", refused, []string{"NodeManager did not answer", "refused"}},
		{"not in YARN", nil, []string{"no NodeManager to ask (CONTAINER_ID, NM_HOST, NM_HTTP_PORT not set"}},
		{"no NM_HOST", []string{"CONTAINER_ID=" + ourContainer, "NM_HTTP_PORT=8042"}, []string{"(NM_HOST not set"}},
		{"bad port", []string{"CONTAINER_ID=" + ourContainer, "NM_HOST=localhost", "NM_HTTP_PORT=http"}, []string{`NM_HTTP_PORT="http" is not a port`}},
		{"NVIDIA all", append(slices.Clone(notFound), "NVIDIA_VISIBLE_DEVICES=all"), []string{"NVIDIA_VISIBLE_DEVICES=all, which names no addresses", "answered 404"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DiscoverGPUs(Sources{Env: envOf(c.env...)}, 2)
			if got != nil {
				t.Errorf("got addresses %q", got)
			}
			wantErr(t, err, c.want...)
		})
	}
}

func TestNodeManagerTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	start := time.Now()
	got, err := DiscoverGPUs(Sources{Env: envOf(append(yarnEnv(t, srv.Listener.Addr().String()), EnvAMGPUIndices+"=4,5")...),
		NodeManagerTimeout: 50 * time.Millisecond}, 2)
	if err != nil || !slices.Equal(got, []string{"4", "5"}) {
		t.Fatalf("DiscoverGPUs = %q, %v; want the AM's indices", got, err)
	}
	if d := time.Since(start); d > DefaultNodeManagerTimeout {
		t.Errorf("took %v; the timeout was 50ms", d)
	}
	_, err = DiscoverGPUs(Sources{Env: envOf(yarnEnv(t, srv.Listener.Addr().String())...), NodeManagerTimeout: 50 * time.Millisecond}, 2)
	wantErr(t, err, "NodeManager did not answer", "deadline exceeded")
}

// TestNodeManagerBadAnswer checks that a 200 answer that cannot be read
// is an error naming the URL, and that no later source is asked.
func TestNodeManagerBadAnswer(t *testing.T) {
	script := gpuScript(t, `"6","7"`)
	exactly := `{"assignedGpuDevices":[{"index":1,"containerId":"` + ourContainer + `"},{"index":0,"containerId":"` + ourContainer + `"}]}`
	exactly += strings.Repeat(" ", maxNodeManagerAnswer-len(exactly))
	cases := []struct {
		name string
		body string
		want []string
	}{
		{"malformed JSON", `{"assignedGpuDevices":[{"index":1,`, []string{"not the JSON expected", "unexpected end of JSON input"}},
		{"HTML", `<html><body>Error 500</body></html>`, []string{"not the JSON expected", "invalid character '<'"}},
		{"a list", `[]`, []string{"not the JSON expected"}},
		{"assignments not a list", `{"assignedGpuDevices":{"index":1,"containerId":"` + ourContainer + `"}}`, []string{"not the JSON expected"}},
		{"index a string", `{"assignedGpuDevices":[{"index":"1","containerId":"` + ourContainer + `"}]}`, []string{"not the JSON expected"}},
		{"index a fraction", `{"assignedGpuDevices":[{"index":1.5,"containerId":"` + ourContainer + `"}]}`, []string{"not the JSON expected"}},
		{"negative index", `{"assignedGpuDevices":[{"index":-1,"containerId":"` + ourContainer + `"}]}`, []string{"GPU index -1", "negative"}},
		{"index twice", `{"assignedGpuDevices":[{"index":1,"containerId":"` + ourContainer + `"},{"index":1,"containerId":"` + ourContainer + `"}]}`, []string{`"1" is listed twice`}},
		{"over 1 MiB", exactly + " ", []string{"answer is larger than 1048576 bytes"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, _ := nodeManager(t, 200, c.body)
			url := "http://127.0.0.1:" + strings.TrimPrefix(env[2], "NM_HTTP_PORT=") + nodeManagerGPUPath
			got, err := DiscoverGPUs(Sources{Env: envOf(append(env, "CUDA_VISIBLE_DEVICES=0,1", EnvAMGPUIndices+"=4,5")...), DiscoveryScript: script}, 2)
			if got != nil {
				t.Errorf("got addresses %q with an error", got)
			}
			wantErr(t, err, append([]string{"NodeManager " + url + ": "}, c.want...)...)
		})
	}
	// 1 MiB exactly is still read.
	env, _ := nodeManager(t, 200, exactly)
	got, err := DiscoverGPUs(Sources{Env: envOf(env...)}, 2)
	if err != nil || !slices.Equal(got, []string{"0", "1"}) {
		t.Fatalf("1 MiB answer: DiscoverGPUs = %q, %v", got, err)
	}
}

// TestLaunchConfigAsksNodeManager checks the path a YARN container takes:
// its environment, read by LaunchFromEnv and Launch.Config, leads
// DiscoverGPUs to the NodeManager.
func TestLaunchConfigAsksNodeManager(t *testing.T) {
	nm, uris := nodeManager(t, 200, nmAnswerIndexed)
	env := envOf(append(nm, "SPINDLE_EXECUTOR_ID=7", "SPINDLE_DRIVER_ADDRESS=127.0.0.1:1", "SPINDLE_EXECUTOR_LOG_DIR="+t.TempDir(),
		"SPINDLE_SECRET_FROM=credentials", "SPINDLE_EXECUTOR_CORES=2", "SPINDLE_EXECUTOR_GPUS=2", "NVIDIA_VISIBLE_DEVICES=0,2", EnvAMGPUIndices+"=4,5")...)
	l, err := LaunchFromEnv(lookupIn(env))
	if err != nil {
		t.Fatal(err)
	}
	cfg := l.Config(env, []byte("secret"))
	got, err := DiscoverGPUs(cfg.GPUSources, cfg.WantGPUs)
	if err != nil || !slices.Equal(got, []string{"1", "3"}) || len(uris()) != 1 {
		t.Fatalf("DiscoverGPUs = %q, %v (requests %q); want the NodeManager's [1 3]", got, err, uris())
	}
}

func TestParseNodeManagerGPUs(t *testing.T) {
	for _, c := range []struct {
		name, body, why string
		want            []string
	}{
		{"indexed", nmAnswerIndexed, "", []string{"1", "3"}},
		{"wrapped", nmAnswerWrapped, "", []string{"1", "3"}},
		{"numeric order", `{"assignedGpuDevices":[{"index":10,"containerId":"c"},{"index":9,"containerId":"c"}]}`, "", []string{"9", "10"}},
		{"null", `null`, "assigns no GPUs", nil},
		{"some unnumbered", `{"assignedGpuDevices":[{"index":1,"containerId":"c"},{"containerId":"c"}]}`, "assigns container c 2 GPU(s) without naming them", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			id := ourContainer
			if strings.Contains(c.body, `"c"`) {
				id = "c"
			}
			got, why, err := parseNodeManagerGPUs([]byte(c.body), id)
			if err != nil || !slices.Equal(got, c.want) || !strings.Contains(why, c.why) || (c.why == "") != (why == "") {
				t.Fatalf("parse = %q, %q, %v; want %q, %q", got, why, err, c.want, c.why)
			}
		})
	}
}
