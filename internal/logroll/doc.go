// Package logroll is a log file that rolls over at a size cap and keeps a
// few old files, so that a process that runs for weeks (a session's
// driver, its executors, a YARN ApplicationMaster) holds a bounded amount
// of disk for its log: at most (Keep+1) × MaxBytes.
//
// The current file keeps its name; at the cap it becomes NAME.1, NAME.1
// becomes NAME.2, and so on up to NAME.Keep, the oldest, which the next
// roll removes. This is log4j's RollingFileAppender, which Hadoop's own
// daemons and Spark's executors roll their logs with.
//
// A process's crash output (a Go panic, the runtime's fatal errors) goes
// to its standard error, not through a logger: after File.Stderr the
// current file is the process's standard error as well, so that output
// lands beside the last log lines, in the file a reader looks at first.
package logroll
