// Package proclog is how Spindle's processes log: logfmt lines at
// spindle.log.level, to a terminal or to a container's log file rolled
// over by spindle.log.maxBytes and spindle.log.maxFiles.
package proclog
