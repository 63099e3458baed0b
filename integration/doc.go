// Package integration holds Spindle's end-to-end tests. They run against a
// real Hadoop YARN and HDFS, the mini cluster of integration/minicluster,
// which package testcluster starts once per test process. What more than
// one test file uses lives in the helpers_*_test.go files, one concept
// each (docs/testing.md, Integration test helpers).
//
// Run them with `make test-integration` (part of `make test`). With CI=true a
// cluster that cannot start fails the run instead of skipping it.
package integration
