package one

import "os"

// readText reads a file.
func readText(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return string(b)
}

// link reads a link: the same shape, another call.
func link(path string) string {
	b, err := os.Readlink(path)
	if err != nil {
		return ""
	}
	return string(b)
}
