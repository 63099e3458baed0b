// Package tasklog names the files an executor keeps for each task attempt
// (its stdout, stderr and resources file) and decides which ended jobs'
// files a long-lived session keeps (Retention). It is a leaf with no I/O,
// so that the AM's pure core names the same files the executor writes.
package tasklog
