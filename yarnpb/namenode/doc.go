// Package namenode speaks the few calls of HDFS's ClientProtocol that
// Spindle makes over its own Hadoop RPC client rather than through
// colinmarc/hdfs: fetching, renewing and cancelling delegation tokens,
// which a NameNode issues only on a Kerberos connection, and deleting a
// path with a delegation token (DIGEST-MD5), which colinmarc/hdfs cannot
// authenticate with. An ApplicationMaster on a Kerberos cluster has no
// ticket, only the tokens its submitter fetched.
package namenode
