// Package settings turns a configuration (deploy/config) into the plain
// values every Spindle process takes: the CLI, the ApplicationMaster in
// its container and a local session's driver read their settings here and
// nowhere else. It also writes and reads the settings file by which a
// process Spindle starts gets the settings it was started with, each
// with where it came from; and it makes the environment page's list of
// them, secrets redacted (environment.go, redact.go).
package settings
