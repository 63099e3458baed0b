// Package localmode is local mode's driver: the same loop and core as
// the ApplicationMaster (am.RunLocal) with executor processes on this
// machine. App settles it from settings, for a job the CLI runs in its
// own process; Serve is a local session's driver, the process `spindle
// session serve` runs in the background.
package localmode
