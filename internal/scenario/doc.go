// Package scenario reads and runs the scripted scenarios that test the
// decision cores (scheduler/testdata/scenarios, am/core/testdata), in the
// manner of etcd-io/raft's datadriven tests. The cores' tests supply only
// their commands; the file format, the strict reading of arguments and
// the comparison with (or rewriting of) the expected output live here,
// once.
//
// A script is blocks: a command line, its input lines, "----", and the
// expected output up to a blank line. Lines before the first block that
// are blank or start with "#" are kept as the script's prologue:
//
//	# a comment
//	submit name=j tasks=2
//	stage s0 tasks=1
//	----
//	job 0
//
// Arguments are bare words and key=value pairs (Args). A number, duration
// or word that does not read, a key given twice and a key or word the
// command does not take fail the script with its file and line: a typo is
// never read as a default.
package scenario
