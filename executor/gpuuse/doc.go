// Package gpuuse is what a GPU is doing, as nvidia-smi's query interface
// reports it: the Sample an executor takes of each of its GPUs every
// spindle.executor.gpuSampleInterval, sends its driver in a heartbeat
// (executor/wire), and the driver shows per executor (am/core's
// ExecutorStatus). The type is defined here once, for all of them.
//
// It only reads text: running nvidia-smi is the executor's business
// (executor/gpu_sampler.go). No driver library is linked, so a machine
// without NVIDIA's driver runs the same binary; it simply has no samples.
// The package does no I/O, so the AM's pure core may import it.
package gpuuse
