// Package staging ships a YARN application's files the way `yarn jar` and
// Spark's yarn Client do: it uploads them into a per-application directory
// on fs.defaultFS and describes each as a LocalResource that the
// NodeManagers download into the container's working directory.
//
//	st, err := staging.New(conf, user, login) // hdfs:// or file:// from fs.defaultFS
//	defer st.Close()
//	dir := staging.StagingDir(settings.StagingDir, user, appID)
//	res, err := st.Stage(ctx, dir, []staging.File{
//		{Local: exe, Name: "spindle", Executable: true},
//		{Local: "job.yaml", Name: "job.yaml"},
//	})
//	if err != nil { st.Remove(ctx, dir); ... }  // Stage leaves what it wrote
//	launch.LocalResources = res
//	...                                          // the application ends
//	st.Remove(ctx, dir)
//
// # What the NodeManager checks
//
// A LocalResource names the file by URL and carries its size and its
// modification time in milliseconds, both taken from the file system after
// the upload (Spark's ClientDistributedCacheManager does the same with
// getFileStatus). The NodeManager's FSDownload stats the file again and
// refuses it when the modification time differs by even a millisecond, so a
// file must not change after it is staged; Stage stats each file only once
// it is complete. (Hadoop 3's FSDownload does not compare the size; it is
// carried as Spark and MapReduce carry it.)
//
// The URL is what YARN's URL.fromPath makes of the file's qualified path:
// scheme, host and port of fs.defaultFS and the absolute path as file. A URI
// without a port gives port -1, written explicitly: the Java side reads an
// absent port as 0 and would then look for hdfs://host:0. So
// hdfs://nn:8020 gives {hdfs, nn, 8020, /user/u/.spindle/app/x}, an HA
// nameservice hdfs://ns1 gives {hdfs, ns1, -1, ...}, and file:/// gives
// {file, no host, -1, /path}.
//
// # File systems
//
// HDFS goes through github.com/colinmarc/hdfs/v2 as the submitting user
// (simple authentication, or a Kerberos login: colinmarc/hdfs cannot
// authenticate with a delegation token), with the client configuration's
// dfs.replication and dfs.blocksize as Hadoop's own client would use them. The local file system serves a cluster whose
// fs.defaultFS is file:// (a single machine): the staging directory is then
// a local path, and the NodeManagers must run where it is readable.
//
// The staging directory is made 0700 (it will hold the application's
// credentials); files are 0600, or 0700 when executable. Visibility is
// APPLICATION: the NodeManager keeps the copies for this application only.
//
// # Segments
//
// An application's journal and event log are segments, files each
// written whole (Segments, through a Stager). A process that holds only
// delegation tokens, an ApplicationMaster on a Kerberos cluster without a
// keytab, keeps its journal with XAttrSegments instead: in the NameNode
// alone, in extended attributes of empty files (docs/reliability.md).
package staging
