package core

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/spindle-yarn/spindle/scheduler"
)

// DeviceIndices hands out device indices per node and per resource (gpu,
// fpga, ...) among one application's containers. A cluster that only
// counts a resource type (yarn.io/gpu without the NodeManager's GPU
// plugin, yarn.io/fpga without its FPGA plugin, as on the mini cluster)
// tells no container which devices it has: the ApplicationMaster then
// picks them, so that no two of its live containers on a node hold the
// same index of a resource (docs/architecture.md, "GPU addresses").
type DeviceIndices struct {
	used map[deviceKey][]bool // index → taken
}

type deviceKey struct{ resource, node string }

// NewDeviceIndices returns an empty table.
func NewDeviceIndices() *DeviceIndices { return &DeviceIndices{used: map[deviceKey][]bool{}} }

// Assign takes the n lowest free indices of resource on node, which has
// capacity of them.
func (g *DeviceIndices) Assign(resource, node string, capacity, n int) ([]string, error) {
	if n < 0 || capacity < 0 {
		return nil, fmt.Errorf("node %s: %d %s of %d: negative", node, n, resource, capacity)
	}
	key := deviceKey{resource, node}
	used := g.used[key]
	for len(used) < capacity {
		used = append(used, false)
	}
	var picked []int
	for i := 0; i < capacity && len(picked) < n; i++ {
		if !used[i] {
			picked = append(picked, i)
		}
	}
	if len(picked) < n {
		return nil, fmt.Errorf("node %s: %d %s asked, %d of its %d free among this application's containers", node, n, resource, len(picked), capacity)
	}
	addrs := make([]string, len(picked))
	for k, i := range picked {
		used[i] = true
		addrs[k] = strconv.Itoa(i)
	}
	g.used[key] = used
	return addrs, nil
}

// Release gives back what Assign gave of resource on node. Releasing an
// index that is not taken is a bug in the caller: it is reported and
// nothing changes.
func (g *DeviceIndices) Release(resource, node string, addrs []string) error {
	used := g.used[deviceKey{resource, node}]
	idx, err := distinct(addrs, func(i int) bool { return i < len(used) && used[i] })
	if err != nil {
		return fmt.Errorf("node %s: releasing %s %w, which this application does not hold there", node, resource, err)
	}
	for _, i := range idx {
		used[i] = false
	}
	return nil
}

// Take takes exactly addrs of resource on node, which has capacity of
// them: the indices a kept container of an earlier attempt holds. An
// index out of range or taken already is refused, and nothing changes.
func (g *DeviceIndices) Take(resource, node string, capacity int, addrs []string) error {
	key := deviceKey{resource, node}
	used := g.used[key]
	for len(used) < capacity {
		used = append(used, false)
	}
	idx, err := distinct(addrs, func(i int) bool { return i < len(used) && !used[i] })
	if err != nil {
		return fmt.Errorf("node %s: taking %s %w, which is not free among its %d", node, resource, err, len(used))
	}
	for _, i := range idx {
		used[i] = true
	}
	g.used[key] = used
	return nil
}

// distinct reads addrs as indices, each one ok says may be, none twice.
func distinct(addrs []string, ok func(int) bool) ([]int, error) {
	idx := make([]int, len(addrs))
	for k, a := range addrs {
		i, err := strconv.Atoi(a)
		if err != nil || i < 0 || !ok(i) || slices.Contains(idx[:k], i) {
			return nil, fmt.Errorf("%q", a)
		}
		idx[k] = i
	}
	return idx, nil
}

// gpuDevices is the resource name GPUs' indices go under.
const gpuDevices = "gpu"

// assignDevices gives a container of p on node its GPU indices and each
// accelerator's, or none of them and why.
func (k *containers) assignDevices(node string, p scheduler.Profile) ([]string, []scheduler.Assigned, error) {
	gpus, err := k.devices.Assign(gpuDevices, node, k.cfg.MaxGPUsPerNode, p.GPUs)
	if err != nil {
		return nil, nil, err
	}
	var accels []scheduler.Assigned
	for _, x := range p.Accels.List() {
		got, err := k.devices.Assign(x.Name, node, k.cfg.MaxAccelsPerNode[x.Name], x.Amount)
		if err != nil {
			k.releaseDevices(node, gpus, accels)
			return nil, nil, err
		}
		accels = append(accels, scheduler.Assigned{Name: x.Name, Addresses: got})
	}
	return gpus, accels, nil
}

// releaseDevices gives back what assignDevices or takeDevices gave.
func (k *containers) releaseDevices(node string, gpus []string, accels []scheduler.Assigned) {
	k.devices.Release(gpuDevices, node, gpus)
	for _, x := range accels {
		k.devices.Release(x.Name, node, x.Addresses)
	}
}

// takeDevices takes exactly what a kept container holds, or nothing
// and why.
func (k *containers) takeDevices(node string, gpus []string, accels []scheduler.Assigned) error {
	if err := k.devices.Take(gpuDevices, node, k.cfg.MaxGPUsPerNode, gpus); err != nil {
		return err
	}
	for i, x := range accels {
		if err := k.devices.Take(x.Name, node, k.cfg.MaxAccelsPerNode[x.Name], x.Addresses); err != nil {
			k.releaseDevices(node, gpus, accels[:i])
			return err
		}
	}
	return nil
}
