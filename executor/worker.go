package executor

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// WorkerSources is where local mode learns the GPUs (or another
// resource's addresses) of the machine it shares among its executors: one
// of three configuration keys.
type WorkerSources struct {
	// Resource is the resource whose addresses these are: "" is gpu.
	Resource        string
	ResourcesFile   string // spindle.worker.resourcesFile (Spark's format, componentName *.worker)
	DiscoveryScript string // spindle.worker.resource.NAME.discoveryScript
	Addresses       string // spindle.worker.resource.NAME.addresses, e.g. "0,1,2,3"; fake addresses are fine
	// Env is the environment the discovery script inherits from (see
	// InheritedEnvironment), as KEY=VALUE; nil means os.Environ().
	Env []string
	// ScriptTimeout bounds the script; zero means DefaultScriptTimeout.
	ScriptTimeout time.Duration
}

// WorkerGPUs returns the worker's GPU addresses from the one source that
// is set, or none when no source is. Two set is an error naming both:
// silently preferring one would hand out GPUs the user did not mean.
func WorkerGPUs(src WorkerSources) ([]string, error) {
	resource := src.Resource
	if resource == "" {
		resource = gpuResource
	}
	key := "spindle.worker.resource." + resource
	var set []string
	for _, s := range []struct{ key, value string }{
		{"spindle.worker.resourcesFile", src.ResourcesFile},
		{key + ".discoveryScript", src.DiscoveryScript},
		{key + ".addresses", src.Addresses},
	} {
		if s.value != "" {
			set = append(set, s.key)
		}
	}
	if len(set) > 1 {
		return nil, fmt.Errorf("%s are set; set only one", strings.Join(set, " and "))
	}
	switch {
	case src.ResourcesFile != "":
		return readResourcesFile(src.ResourcesFile, workerComponents, resource)
	case src.DiscoveryScript != "":
		environ := src.Env
		if environ == nil {
			environ = os.Environ()
		}
		return runDiscoveryScript(src.DiscoveryScript, resource, src.ScriptTimeout, environ)
	case src.Addresses != "":
		return splitAddressList(key+".addresses", src.Addresses)
	}
	return nil, nil
}

// SplitDisjoint gives each of executors perExecutor addresses of addrs,
// no address to two executors: consecutive runs in addrs' order, so the
// same configuration always gives the same split. Addresses left over stay
// unused. The runs share addrs' backing array (capped, so appending to one
// cannot overwrite the next).
func SplitDisjoint(addrs []string, executors, perExecutor int) ([][]string, error) {
	if executors < 0 || perExecutor < 0 {
		return nil, fmt.Errorf("cannot split GPUs among %d executors of %d GPUs each: counts cannot be negative", executors, perExecutor)
	}
	if perExecutor > 0 && executors > len(addrs)/perExecutor {
		return nil, fmt.Errorf("%d executors × %d GPUs each need %d GPU addresses; the worker has %d",
			executors, perExecutor, int64(executors)*int64(perExecutor), len(addrs))
	}
	// Disjoint sets need distinct addresses to begin with.
	if err := checkAddresses("worker GPU addresses", addrs); err != nil {
		return nil, err
	}
	split := make([][]string, executors)
	for i := range split {
		split[i] = addrs[i*perExecutor : (i+1)*perExecutor : (i+1)*perExecutor]
	}
	return split, nil
}
