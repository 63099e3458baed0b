// Package appmaster is the ApplicationMaster process's main, `spindle am`
// in its YARN container: it reads the settings, job and credentials the
// submitter shipped (files.go), connects to the ResourceManager, keeps
// the application's delegation tokens fresh on a Kerberos cluster, guards
// the tracking page, and hands over to am.RunAppMaster; once the job has
// succeeded it removes the application's staging directory.
package appmaster
