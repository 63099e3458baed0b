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

var home, work = "/home", "/work"

// inHome and inWork are not twins: they read other places, named
// outside them.
func inHome() string { return readText(home) }

func inWork() string { return readText(work) }

type page struct{ text string }

// size and length are twins: methods the same but for their names.
func (p page) size() int { return len(p.text) }

func (p page) length() int { return len(p.text) }
