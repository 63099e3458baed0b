// Package integration holds Spindle's end-to-end tests. They run against a
// real Hadoop YARN and HDFS, the mini cluster of integration/minicluster,
// which package testcluster starts once per test process.
//
// Run them with `make test-integration` (part of `make test`). With CI=true a
// cluster that cannot start fails the run instead of skipping it.
package integration
