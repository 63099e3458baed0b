package executor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Asking the NodeManager which GPUs it gave this container.
//
// A YARN NodeManager whose GPU plugin is on
// (yarn.nodemanager.resource-plugins=yarn.io/gpu) picks the devices of
// each container itself, and only it knows which: the allocate response
// tells the AM a count, never device numbers. Hadoop 3 serves its choice
// at
//
//	GET http://$NM_HOST:$NM_HTTP_PORT/ws/v1/node/resources/yarn.io%2Fgpu
//
// (NMWebServices.getNMResourceInfo; the resource name's slash is
// percent-encoded), answering with an NMGpuResourceInfo: every assignment
// of the node, every container's, one entry per GPU:
//
//	{"gpuDeviceInformation": {…},
//	 "totalGpuDevices":    [{"index":0,"minorNumber":0}, {"index":1,"minorNumber":1}, …],
//	 "assignedGpuDevices": [{"index":1,"minorNumber":1,"containerId":"container_1700000000000_0001_01_000002"},
//	                        {"index":3,"minorNumber":3,"containerId":"container_1700000000000_0001_01_000004"}]}
//
// This container's addresses are the index values of the entries whose
// containerId is its CONTAINER_ID. index is the NodeManager's number for
// the GPU: its position in `nvidia-smi -q -x` (NVML's numbering, in PCI
// bus order) or the first half of an admin's "index:minor" entry in
// yarn.nodemanager.resource-plugins.gpu.allowed-gpu-devices; it is what
// Hadoop's nvidia-docker v2 plugin writes into NVIDIA_VISIBLE_DEVICES, so
// it is the kind of number NVIDIA_VISIBLE_DEVICES means. minorNumber is the
// N of /dev/nvidiaN, which the NodeManager's cgroups isolation uses and
// which neither NVIDIA_VISIBLE_DEVICES nor CUDA_VISIBLE_DEVICES means.
// CUDA_VISIBLE_DEVICES counts in CUDA's order, which is NVML's only under
// CUDA_DEVICE_ORDER=PCI_BUS_ID; indices are used as written, as for
// NVIDIA_VISIBLE_DEVICES (see DiscoverGPUs).
//
// What differs between Hadoop versions, and what is read here:
//
//   - Up to 3.4 (Jersey 1, Jackson naming fields after getters, as
//     Hadoop's own tests of that era read "driverVersion") the object comes
//     bare, as above, with index, minorNumber and containerId.
//   - 3.5.0 (Jersey 2, EclipseLink MOXy with NMJsonProvider) also writes it
//     bare, adding "type":"NMGpuResourceInfo" and leaving out empty lists,
//     but MOXy does not bind GpuDevice's getter-only index and minorNumber:
//     an assignment reads {"containerId":"container_…"} and names no GPU.
//     It tells how many GPUs the container holds, not which, so this
//     source has nothing usable and the next one is asked.
//   - Builds between them wrapped it: {"nmGpuResourceInfo":{…}}; accepted.
//   - Without the GPU plugin the answer is still 200, an empty
//     {"nmResourceInfo":{"resourceValue":0}}: no assignments. A NodeManager
//     older than the endpoint answers 404.

// nodeManagerGPUPath is the NodeManager REST path of the GPU plugin's
// state; the %2F must reach the server as written.
const nodeManagerGPUPath = "/ws/v1/node/resources/yarn.io%2Fgpu"

// DefaultNodeManagerTimeout bounds the question to the NodeManager, which
// runs on this very node and answers in milliseconds or not at all (a
// secured or HTTPS-only web port); waiting longer only delays start-up.
const DefaultNodeManagerTimeout = 2 * time.Second

// maxNodeManagerAnswer bounds the answer read: a node's GPU assignments
// take a few kilobytes; more is not the answer expected.
const maxNodeManagerAnswer = 1 << 20

// nodeManagerTransport asks without a proxy: the NodeManager is on this
// node, and a container's HTTP_PROXY is meant for the outside world.
// Built on first use: most runs of the binary never ask.
var nodeManagerTransport = sync.OnceValue(func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	return t
})

// nmGPUInfo is the part of an NMGpuResourceInfo read here.
type nmGPUInfo struct {
	Assigned []nmAssignedGPU `json:"assignedGpuDevices"`
}

// nmAssignedGPU is one AssignedGpuDevice. Index is a pointer because
// Hadoop 3.5.0 leaves it out.
type nmAssignedGPU struct {
	Index       *int64 `json:"index"`
	ContainerID string `json:"containerId"`
}

// nodeManagerGPUs asks the NodeManager of the container (CONTAINER_ID,
// NM_HOST, NM_HTTP_PORT) for the GPUs assigned to it. ok reports a usable
// answer, the addresses in f. Otherwise why says what was missing —
// not in a container, no answer, no entry for this container — for the
// "found nothing" message, and the caller asks the next source. err is for
// an answer that came (200) but cannot be read.
func nodeManagerGPUs(env func(string) (string, bool), src Sources) (f found, ok bool, why string, err error) {
	containerID, _ := env("CONTAINER_ID")
	host, _ := env("NM_HOST")
	port, _ := env("NM_HTTP_PORT")
	var unset []string
	for _, kv := range [][2]string{{"CONTAINER_ID", containerID}, {"NM_HOST", host}, {"NM_HTTP_PORT", port}} {
		if kv[1] == "" {
			unset = append(unset, kv[0])
		}
	}
	if len(unset) > 0 {
		return f, false, "no NodeManager to ask (" + strings.Join(unset, ", ") + " not set: not in a YARN container)", nil
	}
	if n, perr := strconv.ParseUint(port, 10, 16); perr != nil || n == 0 {
		return f, false, fmt.Sprintf("no NodeManager to ask (NM_HTTP_PORT=%q is not a port)", port), nil
	}
	url := "http://" + net.JoinHostPort(host, port) + nodeManagerGPUPath
	body, why, err := getNodeManager(src, url)
	if why != "" || err != nil {
		return f, false, why, err
	}
	addrs, why, err := parseNodeManagerGPUs(body, containerID)
	if err != nil {
		return f, false, "", fmt.Errorf("NodeManager %s: %w", url, err)
	}
	if why != "" {
		return f, false, "NodeManager " + url + " " + why, nil
	}
	return found{addrs, "NodeManager " + url + " (container " + containerID + ")"}, true, "", nil
}

// getNodeManager GETs url and returns the body of a 200 answer. why says
// why there is none to read (the request failed, or another status); err
// is for a 200 answer too large to be the one expected.
func getNodeManager(src Sources, url string) (body []byte, why string, err error) {
	timeout := src.NodeManagerTimeout
	if timeout <= 0 {
		timeout = DefaultNodeManagerTimeout
	}
	client := src.NodeManagerClient
	if client == nil {
		client = &http.Client{Transport: nodeManagerTransport()}
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, rerr := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if rerr != nil {
		return nil, "NodeManager " + url + ": " + rerr.Error(), nil
	}
	req.Header.Set("Accept", "application/json")
	resp, rerr := client.Do(req)
	if rerr != nil {
		return nil, "NodeManager did not answer: " + rerr.Error(), nil
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, "NodeManager " + url + " answered " + resp.Status, nil
	}
	body, rerr = io.ReadAll(io.LimitReader(resp.Body, maxNodeManagerAnswer+1))
	switch {
	case rerr != nil:
		return nil, "NodeManager " + url + ": reading its answer: " + rerr.Error(), nil
	case len(body) > maxNodeManagerAnswer:
		return nil, "", fmt.Errorf("NodeManager %s: answer is larger than %d bytes; not the GPU assignments expected", url, maxNodeManagerAnswer)
	}
	return body, "", nil
}

// parseNodeManagerGPUs reads an NMGpuResourceInfo (see above) and returns
// the indices assigned to containerID, in increasing order. why says why
// the answer names none; err says why it is not the JSON expected.
func parseNodeManagerGPUs(body []byte, containerID string) (addrs []string, why string, err error) {
	var top struct {
		nmGPUInfo
		Wrapped *nmGPUInfo `json:"nmGpuResourceInfo"`
	}
	if err := json.Unmarshal(body, &top); err != nil {
		return nil, "", fmt.Errorf("answer is not the JSON expected (an NMGpuResourceInfo): %v", err)
	}
	info := top.nmGPUInfo
	if top.Wrapped != nil {
		info = *top.Wrapped
	}
	if len(info.Assigned) == 0 {
		return nil, "assigns no GPUs on this node (is its GPU plugin, yarn.nodemanager.resource-plugins=yarn.io/gpu, on?)", nil
	}
	var indices []int64
	unnumbered := 0
	for _, d := range info.Assigned {
		switch {
		case d.ContainerID != containerID:
		case d.Index == nil:
			unnumbered++
		case *d.Index < 0:
			return nil, "", fmt.Errorf("container %s has GPU index %d; an index cannot be negative", containerID, *d.Index)
		default:
			indices = append(indices, *d.Index)
		}
	}
	switch {
	case unnumbered > 0:
		return nil, fmt.Sprintf("assigns container %s %d GPU(s) without naming them (no index: Hadoop 3.5's NodeManager leaves it out)",
			containerID, unnumbered+len(indices)), nil
	case len(indices) == 0:
		return nil, fmt.Sprintf("assigns container %s no GPUs (%d assignment(s), all other containers')", containerID, len(info.Assigned)), nil
	}
	slices.Sort(indices)
	addrs = make([]string, len(indices))
	for i, n := range indices {
		addrs[i] = strconv.FormatInt(n, 10)
	}
	if err := checkAddresses("container "+containerID, addrs); err != nil {
		return nil, "", err
	}
	return addrs, "", nil
}
