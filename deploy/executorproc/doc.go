// Package executorproc is the executor process's main, `spindle
// executor`, as a driver starts it (a local process or a YARN container):
// it reads the launch contract from its environment and the application
// secret from stdin or the container's credentials, opens its rolling log,
// and serves (executor.Serve) until the driver tells it to stop, or goes
// away without a next attempt coming within the launch's rejoin timeout.
package executorproc
