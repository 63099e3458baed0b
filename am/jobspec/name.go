package jobspec

// CheckName checks a job or pool name given outside a spec (a command-line
// flag, a setting) as the spec's own names are checked.
func CheckName(name string) error { return checkName(name) }
