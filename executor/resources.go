package executor

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// The three GPU address formats Spindle shares with Apache Spark
// (docs/architecture.md, "GPU addresses"), with the facts taken from Spark's
// org.apache.spark.resource.ResourceInformation and ResourceUtils:
//
//	(a) discovery script stdout, one ResourceInformation:
//	    {"name":"gpu","addresses":["0","1"]}
//	(b) worker / executor resources file, a list of ResourceAllocation:
//	    [{"id":{"componentName":"spark.worker","resourceName":"gpu"},"addresses":["0","1"]}]
//	(c) a task's resources file, a map of resource name to ResourceInformation:
//	    {"gpu":{"name":"gpu","addresses":["1"]}}
//
// Spark ignores unknown fields and, in (b), entries of other components
// or resources; so do we. Unlike Spark we insist that the fields we use
// are present, so a typo ("adresses") is an error instead of zero GPUs.

// gpuResource is the resource name Spark and Spindle use for GPUs.
const gpuResource = "gpu"

// maxResourcesJSON bounds what we read from a resources file or a
// discovery script: real ones are a few hundred bytes.
const maxResourcesJSON = 1 << 20

// resourceInformation is Spark's ResourceInformation JSON, formats (a) and (c).
type resourceInformation struct {
	Name      *string   `json:"name"`
	Addresses *[]string `json:"addresses"`
}

// resourceAllocation is Spark's ResourceAllocation JSON, one entry of (b).
type resourceAllocation struct {
	ID *struct {
		ComponentName string `json:"componentName"`
		ResourceName  string `json:"resourceName"`
	} `json:"id"`
	Addresses *[]string `json:"addresses"`
}

// Component names whose entries a resources file may carry for us. Spark
// matches componentName exactly; we accept Spindle's prefix as well.
var (
	workerComponents   = []string{"spark.worker", "spindle.worker"}
	executorComponents = []string{"spark.executor", "spindle.executor"}
)

// parseDiscoveryOutput reads format (a). The resource must be named
// resource ("gpu", "fpga", ...), as Spark's ResourceDiscoveryScriptPlugin
// requires of the resource it asked for.
func parseDiscoveryOutput(data []byte, resource string) ([]string, error) {
	var ri resourceInformation
	if err := json.Unmarshal(data, &ri); err != nil {
		return nil, fmt.Errorf(`want JSON {"name":%q,"addresses":[...]}: %w`, resource, err)
	}
	if ri.Name == nil {
		return nil, fmt.Errorf(`no "name" field (want {"name":%q,"addresses":[...]})`, resource)
	}
	if *ri.Name != resource {
		return nil, fmt.Errorf("reported resource %q, want %q", *ri.Name, resource)
	}
	if ri.Addresses == nil {
		return nil, fmt.Errorf(`no "addresses" field (want {"name":%q,"addresses":[...]})`, resource)
	}
	return *ri.Addresses, nil
}

// parseResourcesFile reads format (b) and returns the addresses of the one
// entry of resource ("gpu", "fpga", ...) whose componentName is among
// components (none: no addresses).
func parseResourcesFile(data []byte, components []string, resource string) ([]string, error) {
	var entries []resourceAllocation
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, fmt.Errorf(`want a JSON array of {"id":{"componentName":...,"resourceName":...},"addresses":[...]}: %w`, err)
	}
	var addrs []string
	matched := -1
	for i, e := range entries {
		if e.ID == nil || e.ID.ComponentName == "" || e.ID.ResourceName == "" {
			return nil, fmt.Errorf("entry %d has no id.componentName and id.resourceName", i)
		}
		if e.ID.ResourceName != resource || !slices.Contains(components, e.ID.ComponentName) {
			continue
		}
		if e.Addresses == nil {
			return nil, fmt.Errorf(`entry %d (%s %s) has no "addresses" field`, i, e.ID.ComponentName, resource)
		}
		if matched >= 0 {
			return nil, fmt.Errorf("entries %d and %d both give %s %s addresses", matched, i, components[0], resource)
		}
		matched, addrs = i, *e.Addresses
	}
	return addrs, nil
}

// readResourcesFile reads a file of format (b), bounded, for components'
// addresses of resource, and checks them.
func readResourcesFile(path string, components []string, resource string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxResourcesJSON+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxResourcesJSON {
		return nil, fmt.Errorf("resources file %s is larger than %d bytes", path, maxResourcesJSON)
	}
	addrs, err := parseResourcesFile(data, components, resource)
	if err != nil {
		return nil, fmt.Errorf("resources file %s: %w", path, err)
	}
	if err := checkAddresses("resources file "+path, addrs); err != nil {
		return nil, err
	}
	return addrs, nil
}

// taskResourcesJSON renders format (c): gpus and each of others. A task
// given none gets "{}": Spark's map holds only the resources a task was
// given.
func taskResourcesJSON(gpus []string, others []*wire.Resource) []byte {
	m := map[string]resourceInformation{}
	add := func(name string, addrs []string) {
		if len(addrs) > 0 {
			addrs := slices.Clone(addrs)
			m[name] = resourceInformation{Name: &name, Addresses: &addrs}
		}
	}
	add(gpuResource, gpus)
	for _, r := range others {
		add(r.GetName(), r.GetAddresses())
	}
	data, err := json.Marshal(m)
	if err != nil {
		panic(err) // strings and maps of them always marshal
	}
	return data
}

// WriteTaskResourcesFile writes a task's resources file, format (c), at
// path (the value of SPINDLE_RESOURCES_FILE): its GPUs and its other
// resources. Like Spark it writes a temporary file and renames it, so a
// reader never sees half a file.
func WriteTaskResourcesFile(path string, gpus []string, others []*wire.Resource) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".resources-*.json")
	if err != nil {
		return err
	}
	_, err = tmp.Write(taskResourcesJSON(gpus, others))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
