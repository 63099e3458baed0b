// Package yarnpb is Spindle's side of Hadoop's wire protocols, spoken natively
// with no JVM: the .proto sources (Spindle's own subset, with Hadoop's field
// numbers and types) and the Go generated from them by `make proto`, the
// Hadoop IPC client with SASL (yarnpb/ipc), typed clients for the three YARN
// protocols, credentials files (HADOOP_TOKEN_FILE_LOCATION) and Hadoop's XML
// configuration. See docs/yarnpb.md.
package yarnpb
