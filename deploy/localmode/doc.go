// Package localmode is local mode's driver program, the local shell
// around the driver's loop: the same loop and core as the
// ApplicationMaster (am.Driver) with executor processes on this machine
// (Run, program.go). App settles it from settings, for a job the CLI
// runs in its own process; Serve is a local session's driver, the
// process `spindle session serve` runs in the background.
package localmode
