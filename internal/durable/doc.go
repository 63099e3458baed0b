// Package durable writes files that outlive a crash of the machine, not
// only of the process: a file is synced to disk before it is named, and
// a rename is followed by a sync of its directory, without which the
// new name may be lost though the data is not. A file store that hands
// a reader "all of a file or none" (write under a temporary name, then
// rename) uses both: the journal of deploy/staging's file:// store and
// am/journal's test store.
package durable
