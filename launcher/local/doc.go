// Package local starts executors as processes on this machine: local mode's
// launcher. Each executor is this same binary run as `spindle executor`;
// it learns where the driver listens and what it may use from its
// environment, and the application's secret from its standard input, so
// the secret never appears on a command line or in an environment a task
// or `ps` could read.
package local
