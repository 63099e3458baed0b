package core

import (
	"fmt"
	"slices"
	"strconv"
)

// GPUIndices hands out GPU indices per node among one application's
// containers. A cluster that only counts GPUs (yarn.io/gpu without the
// NodeManager's GPU plugin, as on the mini cluster) tells no container which
// devices it has: the ApplicationMaster then picks them, so that no two of
// its live containers on a node hold the same index (docs/architecture.md, "GPU addresses").
type GPUIndices struct {
	used map[string][]bool // node → index → taken
}

// NewGPUIndices returns an empty table.
func NewGPUIndices() *GPUIndices { return &GPUIndices{used: map[string][]bool{}} }

// Assign takes the n lowest free indices of node, which has capacity GPUs.
func (g *GPUIndices) Assign(node string, capacity, n int) ([]string, error) {
	if n < 0 || capacity < 0 {
		return nil, fmt.Errorf("node %s: %d GPUs of %d: negative", node, n, capacity)
	}
	used := g.used[node]
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
		return nil, fmt.Errorf("node %s: %d GPUs asked, %d of its %d free among this application's containers", node, n, len(picked), capacity)
	}
	addrs := make([]string, len(picked))
	for k, i := range picked {
		used[i] = true
		addrs[k] = strconv.Itoa(i)
	}
	g.used[node] = used
	return addrs, nil
}

// Release gives back what Assign gave on node. Releasing an index that is
// not taken is a bug in the caller: it is reported and nothing changes.
func (g *GPUIndices) Release(node string, addrs []string) error {
	used := g.used[node]
	idx, err := distinct(addrs, func(i int) bool { return i < len(used) && used[i] })
	if err != nil {
		return fmt.Errorf("node %s: releasing GPU %w, which this application does not hold there", node, err)
	}
	for _, i := range idx {
		used[i] = false
	}
	return nil
}

// Take takes exactly addrs on node, which has capacity GPUs: the indices
// a kept container of an earlier attempt holds. An index out of range or
// taken already is refused, and nothing changes.
func (g *GPUIndices) Take(node string, capacity int, addrs []string) error {
	used := g.used[node]
	for len(used) < capacity {
		used = append(used, false)
	}
	idx, err := distinct(addrs, func(i int) bool { return i < len(used) && !used[i] })
	if err != nil {
		return fmt.Errorf("node %s: taking GPU %w, which is not free among its %d", node, err, len(used))
	}
	for _, i := range idx {
		used[i] = true
	}
	g.used[node] = used
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
