// Package namenodetest is an in-memory NameNode for tests, serving the
// calls of HDFS's ClientProtocol that yarnpb/namenode makes over the real
// IPC framing (ipc/ipctest): a tree of directories and empty files with
// their extended attributes, and the NameNode's rules a client relies on
// (a file leased to its creator until completed, rename replacing at
// once, a listing in pages of dfs.ls.limit, the limits on attributes).
// It proves a client's state machine in unit tests; integration tests use
// the real mini cluster.
package namenodetest
