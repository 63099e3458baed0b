package config

import (
	"math"
	"sort"
	"strings"

	"github.com/spindle-yarn/spindle/executor/taskenv"
)

// Resource keys name a resource of the user's, as Spark's
// spark.executor.resource.{name}.amount does: spindle.executor.resource,
// spindle.task.resource and spindle.worker.resource, then the resource's
// name, then a field. GPUs' own keys are registry rows (keys.go); every
// other name, and gpu's fields without a row (vendor), come from here.

// A resourceField is one field of the resource keys under a scope.
type resourceField struct {
	kind    Kind
	check   func(any) error
	meaning string
}

// resourceFields are the fields each scope takes, by "scope.field".
var resourceFields = map[string]resourceField{
	"executor.amount": {KindInt, atLeast(0),
		"addresses of this resource per executor (on YARN the container asks its resource type, spindle.yarn.resourceMapping)"},
	"executor.discoveryScript": {KindString, nil, "Spark-compatible script printing the executor's addresses of this resource"},
	"executor.vendor":          {KindString, nil, "the resource's vendor, as Spark's (informational: YARN's resource types do not take it)"},
	"task.amount": {KindFloat, floatCheck("want a whole number: only gpu is shared in fractions",
		func(f float64) bool { return f >= 0 && f == math.Trunc(f) && f <= math.MaxInt32 }),
		"addresses of this resource per task (whole ones)"},
	"worker.addresses":       {KindString, nil, "local mode: the worker's addresses of this resource, e.g. 0,1 (fake ones allowed)"},
	"worker.discoveryScript": {KindString, nil, "local mode: Spark-compatible discovery script of this resource"},
}

// CheckResourceName holds a resource's name to taskenv's rule: it is
// spelled in keys, in SPINDLE_<NAME>_ADDRESSES and in the executor's
// launch variables, so it has neither dots nor upper case.
func CheckResourceName(name string) error { return taskenv.CheckResourceName(name) }

// splitResourceKey reads spindle.SCOPE.resource.NAME.FIELD into NAME and
// "SCOPE.FIELD"; ok is false
// for a name of another form or a field the scope does not take.
func splitResourceKey(key string) (name, field string, f resourceField, ok bool) {
	rest, found := strings.CutPrefix(key, spindlePrefix)
	if !found {
		return "", "", f, false
	}
	scope, rest, _ := strings.Cut(rest, ".resource.")
	dot := strings.LastIndexByte(rest, '.')
	if dot < 0 {
		return "", "", f, false
	}
	name, field = rest[:dot], scope+"."+rest[dot+1:]
	f, ok = resourceFields[field]
	return name, field, f, ok
}

// resourceKey is the registry row a resource key would have. A malformed
// name is the value's error, so that the message names the source and
// the rule rather than "unknown key".
func resourceKey(key string) (Key, bool) {
	name, _, f, ok := splitResourceKey(key)
	if !ok {
		return Key{}, false
	}
	check := func(v any) error {
		if err := CheckResourceName(name); err != nil {
			return err
		}
		if f.check != nil {
			return f.check(v)
		}
		return nil
	}
	return Key{Name: key, Kind: f.kind, Meaning: f.meaning, check: check}, true
}

// GPUResource is the resource whose keys are registry rows, and which
// the scheduler handles apart (fractions, visibility variables).
const GPUResource = "gpu"

// Resource is what the keys say of one resource besides gpu.
type Resource struct {
	Name string
	// ExecutorAmount, DiscoveryScript and Vendor are
	// spindle.executor.resource.NAME.{amount,discoveryScript,vendor}.
	ExecutorAmount  int
	DiscoveryScript string
	Vendor          string
	// TaskAmount is spindle.task.resource.NAME.amount.
	TaskAmount int
	// WorkerAddresses and WorkerDiscoveryScript are
	// spindle.worker.resource.NAME.{addresses,discoveryScript}.
	WorkerAddresses       string
	WorkerDiscoveryScript string
}

// Resources lists, by name, every resource besides gpu that a key names.
func (c *Config) Resources() []Resource {
	byName := map[string]*Resource{}
	for key, v := range c.values {
		name, field, _, ok := splitResourceKey(key)
		if !ok || name == GPUResource {
			continue
		}
		r := byName[name]
		if r == nil {
			r = &Resource{Name: name}
			byName[name] = r
		}
		switch field {
		case "executor.amount":
			r.ExecutorAmount = v.parsed.(int)
		case "executor.discoveryScript":
			r.DiscoveryScript = v.Value
		case "executor.vendor":
			r.Vendor = v.Value
		case "task.amount":
			r.TaskAmount = int(v.parsed.(float64))
		case "worker.addresses":
			r.WorkerAddresses = v.Value
		case "worker.discoveryScript":
			r.WorkerDiscoveryScript = v.Value
		}
	}
	out := make([]Resource, 0, len(byName))
	for _, r := range byName {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
