// Package taskenv names the variables Spindle reserves in a task's
// environment. It is a leaf, so that job specs (am/jobspec) and
// configuration (deploy/config) can refuse them without depending on the
// executor, and the AM's pure core with them.
package taskenv

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// PreemptedFile names the file that tells a task its container is going
// back to YARN (preempted, or its node decommissioned): it holds
// PreemptedLine once the task is to checkpoint and stop, written before
// the task's SIGTERM. Every task has the variable from its start; the
// file exists only once it is told (docs/yarn.md, "Preemption and
// decommissioning").
const PreemptedFile = "SPINDLE_PREEMPTED_FILE"

// PreemptedLine is what the file PreemptedFile names holds, a line of
// its own.
const PreemptedLine = "SPINDLE_PREEMPTED=1"

// GPUVisibility are the variables through which CUDA, the NVIDIA container
// runtime and ROCm (HIP, ROCr) choose the GPUs a process sees. An
// executor's values describe all of its GPUs, not a task's, so a task
// never inherits them; Spindle sets CUDA_VISIBLE_DEVICES (which HIP honours
// too) to exactly the task's addresses.
var GPUVisibility = []string{"CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"}

// The rendezvous variables of a gang stage's tasks (docs/gangs.md), as
// torchrun sets them for its workers: RANK is the task's index,
// WORLD_SIZE the gang's size, LOCAL_RANK and LOCAL_WORLD_SIZE a task's
// rank among and the count of the gang's tasks on its host (in rank
// order), MASTER_ADDR rank 0's host and MASTER_PORT a port free there,
// and GangHosts every task's host in rank order, comma-separated.
const (
	Rank           = "RANK"
	WorldSize      = "WORLD_SIZE"
	LocalRank      = "LOCAL_RANK"
	LocalWorldSize = "LOCAL_WORLD_SIZE"
	MasterAddr     = "MASTER_ADDR"
	MasterPort     = "MASTER_PORT"
	GangHosts      = "SPINDLE_GANG_HOSTS"
)

// Rendezvous are the rendezvous variables: Spindle's to set in a gang,
// and never inherited by any task, where a stale one would mislead.
var Rendezvous = []string{Rank, WorldSize, LocalRank, LocalWorldSize, MasterAddr, MasterPort, GangHosts}

// Reserved reports whether a variable is Spindle's to set for each task:
// SPINDLE_* (the task's identity, and the executor's own launch
// variables), the GPU visibility variables and the rendezvous variables. A task does not inherit
// them from its executor, and neither spindle.executorEnv nor a job spec
// may set them.
func Reserved(name string) bool {
	if strings.HasPrefix(name, "SPINDLE_") {
		return true
	}
	return slices.Contains(GPUVisibility, name) || slices.Contains(Rendezvous, name)
}

// InputFile names the file holding the splits of a task of a stage with
// an input (docs/data.md): one piece a line, path, offset and length
// separated by tabs, in the format internal/splits writes and reads
// (splits.WritePieces, splits.ParsePieces). A task of a stage without an
// input has no such variable.
const InputFile = "SPINDLE_INPUT_FILE"

// InputPath names the path of a task's one input file when its split is
// that file, whole (splits.Split.WholeFile: split: file, or a file of one
// block): what most per-file tasks need, without reading InputFile. A
// task whose split is part of a file, or several, has no such variable.
const InputPath = "SPINDLE_INPUT_PATH"

// ResourcesFile names the file holding a task's resources in Spark's
// format: {"gpu":{"name":"gpu","addresses":[...]},"fpga":{...}}.
const ResourcesFile = "SPINDLE_RESOURCES_FILE"

// Addresses names the variable holding a task's addresses of resource
// ("gpu", "fpga", ...), comma-separated: SPINDLE_<NAME>_ADDRESSES, the
// name upper-cased. It is Reserved, as every SPINDLE_* variable is.
func Addresses(resource string) string {
	return "SPINDLE_" + strings.ToUpper(resource) + "_ADDRESSES"
}

// resourceName is what a resource's name must be to be spelled in
// variable names and keys: lower-case, no dots (ResourceNameRule).
var resourceName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

// ResourceNameRule says what a resource's name may be.
const ResourceNameRule = "lower-case letters, digits and _, starting with a letter, at most 32"

// CheckResourceName holds a resource's name to ResourceNameRule.
func CheckResourceName(name string) error {
	if !resourceName.MatchString(name) {
		return fmt.Errorf("resource name %q: want %s", name, ResourceNameRule)
	}
	return nil
}
