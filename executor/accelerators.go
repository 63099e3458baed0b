package executor

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/executor/taskenv"
	"github.com/spindle-yarn/spindle/executor/wire"
)

// Accelerator is what a launcher tells an executor of one resource
// besides GPUs (an FPGA, a TPU: spindle.executor.resource.NAME.*): how
// many addresses to find, and where.
type Accelerator struct {
	Name string
	// Amount is how many addresses the executor must find.
	Amount int
	// Addresses are its addresses when the launcher knows them (local
	// mode): the first source.
	Addresses []string
	// DiscoveryScript is spindle.executor.resource.NAME.discoveryScript.
	DiscoveryScript string
	// AMIndices are the indices the ApplicationMaster picked for its
	// container, for a YARN resource type that is a bare count: the last
	// resort.
	AMIndices []string
}

// The launch variables of accelerators. For each resource NAME (upper-
// cased) the lists and the script have variables of their own, spelled
// as GPUs' are: SPINDLE_EXECUTOR_GPU_ADDRESSES is the gpu case of
// SPINDLE_EXECUTOR_<NAME>_ADDRESSES.
const envExecutorAccelerators = "SPINDLE_EXECUTOR_ACCELERATORS" // "fpga=2,tpu=1"

func envAcceleratorAddresses(name string) string {
	return "SPINDLE_EXECUTOR_" + strings.ToUpper(name) + "_ADDRESSES"
}

func envAcceleratorAMIndices(name string) string {
	return "SPINDLE_EXECUTOR_AM_" + strings.ToUpper(name) + "_INDICES"
}

func envAcceleratorScript(name string) string {
	return "SPINDLE_EXECUTOR_" + strings.ToUpper(name) + "_DISCOVERY_SCRIPT"
}

// acceleratorsEnv adds accels' variables to env: the amounts of those
// with any, and each one's lists and script where set.
func acceleratorsEnv(env map[string]string, accels []Accelerator) {
	var amounts []string
	for _, a := range accels {
		if a.Amount > 0 {
			amounts = append(amounts, a.Name+"="+strconv.Itoa(a.Amount))
		}
		for name, value := range map[string]string{envAcceleratorAddresses(a.Name): strings.Join(a.Addresses, ","),
			envAcceleratorAMIndices(a.Name): strings.Join(a.AMIndices, ","), envAcceleratorScript(a.Name): a.DiscoveryScript} {
			if value != "" {
				env[name] = value
			}
		}
	}
	if len(amounts) > 0 {
		env[envExecutorAccelerators] = strings.Join(amounts, ",")
	}
}

// acceleratorsFromEnv reads back what acceleratorsEnv wrote: the
// accelerators SPINDLE_EXECUTOR_ACCELERATORS names, each with its lists
// and script. An error names the variable and its value.
func acceleratorsFromEnv(get func(string) string) ([]Accelerator, error) {
	list := get(envExecutorAccelerators)
	if list == "" {
		return nil, nil
	}
	var out []Accelerator
	for _, entry := range strings.Split(list, ",") {
		name, n, ok := strings.Cut(entry, "=")
		amount, err := strconv.Atoi(n)
		switch {
		case !ok || err != nil || amount < 1:
			return nil, fmt.Errorf("executor: %s=%q: want NAME=N, N at least 1, for each", envExecutorAccelerators, list)
		case name == gpuResource:
			return nil, fmt.Errorf("executor: %s=%q: gpu has its own variables", envExecutorAccelerators, list)
		}
		if err := taskenv.CheckResourceName(name); err != nil {
			return nil, fmt.Errorf("executor: %s: %w", envExecutorAccelerators, err)
		}
		for _, a := range out {
			if a.Name == name {
				return nil, fmt.Errorf("executor: %s=%q: %s given twice", envExecutorAccelerators, list, name)
			}
		}
		a := Accelerator{Name: name, Amount: amount, DiscoveryScript: get(envAcceleratorScript(name))}
		if a.Addresses, err = splitAddressList(envAcceleratorAddresses(name), get(envAcceleratorAddresses(name))); err != nil {
			return nil, fmt.Errorf("executor: %w", err)
		}
		if a.AMIndices, err = splitAddressList(envAcceleratorAMIndices(name), get(envAcceleratorAMIndices(name))); err != nil {
			return nil, fmt.Errorf("executor: %w", err)
		}
		out = append(out, a)
	}
	return out, nil
}

// DiscoverAccelerators finds each accelerator's Amount addresses, from
// the first of these that says anything:
//
//  1. what its launcher gave it: the Addresses, or
//     SPINDLE_EXECUTOR_RESOURCES_FILE's entry for the resource (local
//     mode);
//  2. its discovery script, run with timeout, whose output must name the
//     resource;
//  3. the indices the ApplicationMaster picked (a YARN resource type that
//     is a bare count, as GPUs on the mini cluster);
//  4. nothing.
//
// Finding fewer than Amount is an error naming the resource, the number,
// the source and Amount; finding more, it takes the first Amount. environ
// is the executor's environment (nil: os.Environ()).
func DiscoverAccelerators(accels []Accelerator, environ []string, timeout time.Duration) ([]*wire.Resource, error) {
	if len(accels) == 0 {
		return nil, nil
	}
	if environ == nil {
		environ = os.Environ()
	}
	out := make([]*wire.Resource, 0, len(accels))
	for _, a := range accels {
		f, err := findAccelerator(a, environ, timeout)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.Name, err)
		}
		if len(f.addrs) < a.Amount {
			return nil, fmt.Errorf("found %d %s address(es) %q from %s; want %d", len(f.addrs), a.Name, f.addrs, f.source, a.Amount)
		}
		out = append(out, &wire.Resource{Name: a.Name, Addresses: f.addrs[:a.Amount:a.Amount]})
	}
	return out, nil
}

func findAccelerator(a Accelerator, environ []string, timeout time.Duration) (found, error) {
	file, _ := lookupIn(environ)(EnvExecutorResourcesFile)
	switch {
	case a.Addresses != nil:
		return found{a.Addresses, envAcceleratorAddresses(a.Name)}, nil
	case file != "":
		addrs, err := readResourcesFile(file, executorComponents, a.Name)
		return found{addrs, "resources file " + file + " (" + EnvExecutorResourcesFile + ")"}, err
	case a.DiscoveryScript != "":
		addrs, err := runDiscoveryScript(a.DiscoveryScript, a.Name, timeout, environ)
		return found{addrs, "discovery script " + a.DiscoveryScript}, err
	case a.AMIndices != nil:
		return found{a.AMIndices, envAcceleratorAMIndices(a.Name) + " (the ApplicationMaster's indices)"}, nil
	}
	return found{source: fmt.Sprintf("nowhere (no %s or %s, no spindle.executor.resource.%s.discoveryScript, no %s)",
		envAcceleratorAddresses(a.Name), EnvExecutorResourcesFile, a.Name, envAcceleratorAMIndices(a.Name))}, nil
}

// acceleratorVariables is SPINDLE_<NAME>_ADDRESSES for each of the
// executor's accelerators, holding the addresses l gives the task of it:
// set and empty for those it does not ask, as GPUs' are.
func acceleratorVariables(have []*wire.Resource, l *wire.Launch) []string {
	out := make([]string, 0, len(have))
	for _, r := range have {
		var addrs []string
		for _, x := range l.GetResources() {
			if x.GetName() == r.GetName() {
				addrs = x.GetAddresses()
			}
		}
		out = append(out, taskenv.Addresses(r.GetName())+"="+strings.Join(addrs, ","))
	}
	return out
}
