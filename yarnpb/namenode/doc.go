// Package namenode speaks the few calls of HDFS's ClientProtocol that
// Spindle makes over its own Hadoop RPC client rather than through
// colinmarc/hdfs, which cannot authenticate with a delegation token
// (DIGEST-MD5). An ApplicationMaster on a Kerberos cluster without a
// keytab has no ticket, only the tokens its submitter fetched: with them
// it deletes its staging directory, and keeps its journal in the
// NameNode alone, in extended attributes of empty files it makes, lists
// and renames (reaching no DataNode). The submitter fetches, renews and
// cancels delegation tokens, which a NameNode issues only on a Kerberos
// connection.
package namenode
