// Package ipctest is an in-process Hadoop IPC server for tests: it speaks
// the framing, connection context and (through a hook) SASL of a real
// Hadoop daemon, and hands each call to a Go function. It proves the client
// against a peer in unit tests and benchmarks; integration tests use the
// real mini cluster.
package ipctest
