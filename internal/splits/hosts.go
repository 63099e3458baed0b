package splits

import (
	"cmp"
	"slices"
)

// MaxHosts bounds a split's preferred hosts: HDFS's default replication
// is 3, and a split of many files' blocks would otherwise name most of
// the cluster, which is no preference at all.
const MaxHosts = 3

// hostBytes counts, for the split being made, the bytes of it each host
// holds.
type hostBytes map[string]int64

func (h *hostBytes) reset() {
	if *h == nil {
		*h = hostBytes{}
	}
	clear(*h)
}

// addBlock counts a whole block for each host holding it.
func (h hostBytes) addBlock(b Block) {
	for _, host := range b.Hosts {
		h[host] += b.Length
	}
}

// addFile counts every block of f; a file with no block locations (a
// local one) counts for no host.
func (h hostBytes) addFile(f *File) {
	for _, b := range f.Blocks {
		h.addBlock(b)
	}
}

// top is the hosts holding the most bytes, most first, ties by name, at
// most MaxHosts; nil for none.
func (h hostBytes) top() []string {
	if len(h) == 0 {
		return nil
	}
	hosts := make([]string, 0, len(h))
	for host := range h {
		hosts = append(hosts, host)
	}
	slices.SortFunc(hosts, func(a, b string) int {
		return cmp.Or(cmp.Compare(h[b], h[a]), cmp.Compare(a, b))
	})
	return hosts[:min(len(hosts), MaxHosts)]
}
