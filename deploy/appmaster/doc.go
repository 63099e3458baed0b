// Package appmaster is the ApplicationMaster process, `spindle am` in
// its YARN container, and the YARN shell around the driver's loop: it
// reads the settings, job and credentials the submitter shipped
// (container.go), connects to the ResourceManager, keeps the
// application's delegation tokens fresh on a Kerberos cluster, then
// (runAppMaster) listens for executors and a session's clients,
// registers, takes over what an earlier attempt left (takeover.go),
// serves the tracking page behind its guard (tracking.go), runs the loop
// (am.Driver) with the executor containers' launch context
// (executor_launch.go), and unregisters with how the application ended
// (unregister.go); once the job has succeeded it removes the
// application's staging directory.
package appmaster
