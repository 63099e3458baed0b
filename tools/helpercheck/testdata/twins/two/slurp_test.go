package two

import "os"

// slurp is readText with other names.
func slurp(p string) string {
	data, e := os.ReadFile(p)
	if e != nil {
		return ""
	}
	return string(data)
}

// slurpOr is not: it returns what it is given.
func slurpOr(p, or string) string {
	data, e := os.ReadFile(p)
	if e != nil {
		return or
	}
	return string(data)
}
