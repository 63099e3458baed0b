// Package summary prints what a finished job comes to, as every process
// that ran one (local mode, the ApplicationMaster, a session's client)
// tells its user.
package summary
