package executor

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// Variables through which a launcher hands an executor its GPUs. A
// launcher sets at most one of them.
const (
	// EnvExecutorGPUAddresses is a comma-separated address list, such as
	// "0,1"; set and empty, it says the executor has none.
	EnvExecutorGPUAddresses = "SPINDLE_EXECUTOR_GPU_ADDRESSES"
	// EnvExecutorResourcesFile is the path of a resources file in Spark's
	// format (componentName spark.executor or spindle.executor).
	EnvExecutorResourcesFile = "SPINDLE_EXECUTOR_RESOURCES_FILE"
)

// EnvAMGPUIndices is where the YARN ApplicationMaster puts the indices it
// picked for the executor's container, comma-separated: distinct among its
// own containers on the node, but chosen without knowing the devices, so
// they are a last resort, used only when neither the NodeManager nor the
// container names any GPU (a cluster whose GPUs are a bare count).
const EnvAMGPUIndices = "SPINDLE_EXECUTOR_AM_GPU_INDICES"

// EnvContainerRuntime is YARN's YARN_CONTAINER_RUNTIME_TYPE: "docker" in a
// container the NodeManager started in a Docker image, where its GPU
// plugin set NVIDIA_VISIBLE_DEVICES to the container's GPUs.
const EnvContainerRuntime = "YARN_CONTAINER_RUNTIME_TYPE"

// Sources is where an executor may learn its GPU addresses.
type Sources struct {
	// Env is the executor's environment as KEY=VALUE; nil means
	// os.Environ().
	Env []string
	// DiscoveryScript is spindle.executor.resource.gpu.discoveryScript;
	// empty when not configured.
	DiscoveryScript string
	// ScriptTimeout bounds the script; zero means DefaultScriptTimeout.
	ScriptTimeout time.Duration
	// NodeManagerClient asks the NodeManager (nodemanager_gpus.go); nil
	// means a client that ignores proxy variables.
	NodeManagerClient *http.Client
	// NodeManagerTimeout bounds that question; zero means
	// DefaultNodeManagerTimeout.
	NodeManagerTimeout time.Duration
}

// found is a list of addresses and the source that gave it, for messages.
type found struct {
	addrs  []string
	source string
}

// DiscoverGPUs returns the want GPU addresses of this executor, from the
// first of these sources that says anything (docs/architecture.md,
// "GPU addresses": the NodeManager's choice, then what the container sees, then
// the AM's):
//
//  1. what its launcher gave it: SPINDLE_EXECUTOR_GPU_ADDRESSES or
//     SPINDLE_EXECUTOR_RESOURCES_FILE (both set is an error); the local
//     launcher's way;
//  2. in a YARN container (CONTAINER_ID, NM_HOST and NM_HTTP_PORT set),
//     but for one in a Docker image (source 3 first, below),
//     the GPUs the NodeManager assigned it, asked over its REST API within
//     Sources.NodeManagerTimeout (nodemanager_gpus.go); no answer, another
//     status than 200, or an answer naming none of this container's GPUs
//     passes to the next source, while a 200 answer that is not the JSON
//     expected is an error;
//  3. what the container runtime exposes: NVIDIA_VISIBLE_DEVICES, then
//     CUDA_VISIBLE_DEVICES (see below);
//  4. the discovery script, run with Sources.ScriptTimeout;
//  5. the indices the ApplicationMaster picked, SPINDLE_EXECUTOR_AM_GPU_INDICES;
//  6. nothing.
//
// The container variables follow the NVIDIA container runtime: a list of
// indices or UUIDs ("0,1", "GPU-8f2e…") gives those addresses; "", "none"
// and "void" give none, and so does "-1", CUDA's usual way to hide every
// GPU. "all" names no addresses, so it defers to the next source: the
// other variable, then the discovery script, then the AM's indices.
// Indices are used as written; inside a container that renumbers the GPUs
// it exposes, a list of UUIDs (or a discovery script) is what names them
// correctly.
//
// Finding fewer than want is an error naming the number, the source and
// want: the executor must not register with GPUs it does not have. Finding
// more, it takes the first want in the source's order, leaving the others
// to whoever else shares the node. want 0 looks nowhere.
//
// In a Docker container (YARN_CONTAINER_RUNTIME_TYPE=docker) source 3
// comes before source 2: the NodeManager's nvidia-docker plugin set
// NVIDIA_VISIBLE_DEVICES to exactly the GPUs it gave the container, and
// the NodeManager's REST API may be out of reach from the container's
// network (asking would cost the timeout). "all" there still defers.
func DiscoverGPUs(src Sources, want int) ([]string, error) {
	if want < 0 {
		return nil, fmt.Errorf("want %d GPUs: a count cannot be negative", want)
	}
	if want == 0 {
		return nil, nil
	}
	environ := src.Env
	if environ == nil {
		environ = os.Environ()
	}
	f, err := findGPUs(environ, src)
	if err != nil {
		return nil, err
	}
	if len(f.addrs) < want {
		return nil, fmt.Errorf("found %d GPU address(es) %q from %s; want %d", len(f.addrs), f.addrs, f.source, want)
	}
	return f.addrs[:want:want], nil
}

func findGPUs(environ []string, src Sources) (found, error) {
	env := lookupIn(environ)
	if f, ok, err := launcherGPUs(env); ok || err != nil {
		return f, err
	}
	if runtime, _ := env(EnvContainerRuntime); runtime == "docker" {
		if f, ok, _, err := runtimeGPUs(env); ok || err != nil {
			f.source += " (set by the NodeManager in its Docker container)"
			f.addrs = inContainer(f.addrs)
			return f, err
		}
	}
	f, ok, nmWhy, err := nodeManagerGPUs(env, src)
	if ok || err != nil {
		return f, err
	}
	f, ok, deferred, err := runtimeGPUs(env)
	if ok || err != nil {
		return f, err
	}
	if src.DiscoveryScript != "" {
		addrs, err := runDiscoveryScript(src.DiscoveryScript, gpuResource, src.ScriptTimeout, environ)
		return found{addrs, "discovery script " + src.DiscoveryScript}, err
	}
	if list, ok := env(EnvAMGPUIndices); ok {
		addrs, err := splitAddressList(EnvAMGPUIndices, list)
		return found{addrs, EnvAMGPUIndices + " (the ApplicationMaster's indices; " + nmWhy + ")"}, err
	}
	if deferred != "" {
		return found{source: deferred + ", which names no addresses (set spindle.executor.resource.gpu.discoveryScript); " + nmWhy}, nil
	}
	return found{source: "nowhere (" + strings.Join([]string{
		"no " + EnvExecutorGPUAddresses + " or " + EnvExecutorResourcesFile,
		nmWhy,
		"no NVIDIA_VISIBLE_DEVICES or CUDA_VISIBLE_DEVICES",
		"no spindle.executor.resource.gpu.discoveryScript",
		"no " + EnvAMGPUIndices}, "; ") + ")"}, nil
}

// runtimeGPUs reads source 3, what the container runtime exposes; ok
// reports whether it decided. deferred names a variable that was "all",
// which defers to the sources after it.
func runtimeGPUs(env func(string) (string, bool)) (f found, ok bool, deferred string, err error) {
	for _, key := range []string{"NVIDIA_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"} {
		v, set := env(key)
		switch {
		case !set:
			continue
		case v == "all":
			deferred = key + "=all"
			continue
		case v == "" || v == "none" || v == "void" || v == "-1":
			return found{source: fmt.Sprintf("%s=%q", key, v)}, true, deferred, nil
		}
		addrs, err := splitAddressList(key, v)
		return found{addrs, key}, true, deferred, err
	}
	return f, false, deferred, nil
}

// inContainer turns the node's GPU indices the nvidia-docker plugin
// listed into the ordinals CUDA gives them inside the container: the
// runtime exposes only those GPUs, numbered from 0 in the list's order,
// so node GPUs 2,3 are CUDA's 0,1 there. UUIDs (GPU-...) name the same
// device inside and out, and stay; a list mixing the two is kept as it
// is, since no ordinal can be trusted then.
func inContainer(addrs []string) []string {
	for _, a := range addrs {
		if _, err := strconv.Atoi(a); err != nil {
			return addrs
		}
	}
	out := make([]string, len(addrs))
	for i := range addrs {
		out[i] = strconv.Itoa(i)
	}
	return out
}

// launcherGPUs reads source 1; ok reports whether the launcher set it.
func launcherGPUs(env func(string) (string, bool)) (f found, ok bool, err error) {
	list, haveList := env(EnvExecutorGPUAddresses)
	file, _ := env(EnvExecutorResourcesFile)
	switch {
	case haveList && file != "":
		return f, true, fmt.Errorf("both %s and %s are set; a launcher sets one", EnvExecutorGPUAddresses, EnvExecutorResourcesFile)
	case haveList:
		addrs, err := splitAddressList(EnvExecutorGPUAddresses, list)
		return found{addrs, EnvExecutorGPUAddresses}, true, err
	case file != "":
		addrs, err := readResourcesFile(file, executorComponents, gpuResource)
		return found{addrs, "resources file " + file + " (" + EnvExecutorResourcesFile + ")"}, true, err
	}
	return f, false, nil
}
