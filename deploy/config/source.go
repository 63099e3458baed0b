package config

import "strconv"

// A Source is where a value came from: a properties file and line, the
// --conf overrides (File "--conf", Line 0), a command-line flag that stands
// for the key (Flag, e.g. "--master"), or the registry's default (the zero
// Source).
type Source struct {
	File string
	Line int
	Flag string
}

// confFlag is the File of a value given with --conf.
const confFlag = "--conf"

// CommandLine says whether the value was given on the command line, by a
// flag or --conf, rather than by a properties file or a default.
func (s Source) CommandLine() bool { return s.Flag != "" || s.File == confFlag }

// String is file:line, --conf, the flag, or default, as messages print it.
func (s Source) String() string {
	switch {
	case s.Flag != "":
		return s.Flag
	case s.File == "":
		return "default"
	case s.Line == 0:
		return s.File
	}
	return s.File + ":" + strconv.Itoa(s.Line)
}
