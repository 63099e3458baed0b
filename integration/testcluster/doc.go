// Package testcluster gives Go tests a running Hadoop mini cluster: YARN with
// NODEMANAGERS NodeManagers of GPUS_PER_NODE yarn.io/gpu and FPGAS_PER_NODE
// yarn.io/fpga each, and HDFS.
//
// One cluster serves a whole `go test` process. A package opts in with
//
//	func TestMain(m *testing.M) { testcluster.Main(m) }
//
// and each test calls Get(t), which starts the cluster on first use through
// integration/minicluster.sh on free loopback ports and stops it when the
// tests are done. The cluster follows the test process, so a test binary that
// is killed leaves no JVM behind. A failing test is given the tail of the
// cluster's logs.
//
// When the cluster cannot start, Get fails the test under CI=true and skips it
// otherwise (a developer machine without Java, say). Setting
// SPINDLE_MINICLUSTER_DIR to the DIR of a cluster started by hand
// (`make minicluster`) reuses it and leaves it running. GetWith asks for a
// cluster configured otherwise (hadoop.rpc.protection=privacy, say): each
// distinct configuration is started once and shared the same way.
//
// A cluster aggregates ended applications' logs to its HDFS; YarnLogs runs
// Hadoop's own `yarn logs` once they are there, and ParseYarnLogs splits
// its output into the containers' files.
package testcluster
