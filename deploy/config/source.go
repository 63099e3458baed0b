package config

import "strconv"

// A Source is where a value came from: a properties file and line, the
// --conf overrides (File "--conf", Line 0), or the registry's default (File
// "").
type Source struct {
	File string
	Line int
}

// confFlag is the File of a value given with --conf.
const confFlag = "--conf"

// String is file:line, --conf, or default, as messages print it.
func (s Source) String() string {
	switch {
	case s.File == "":
		return "default"
	case s.Line == 0:
		return s.File
	}
	return s.File + ":" + strconv.Itoa(s.Line)
}
