package main

import (
	"os"
	"path/filepath"
	"strings"
)

// moduleOf is the directory, relative to root, of the module that holds
// file (relative to root too): the nearest with a go.mod at or above the
// file's, root when none below it has one. tools/ is a module of its own.
func moduleOf(root, file string) string {
	for dir := filepath.Dir(file); dir != "." && !strings.HasPrefix(dir, ".."); dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(root, dir, "go.mod")); err == nil {
			return dir
		}
	}
	return "."
}

// inModule rebases go test's arguments that name a directory under root
// (".", "./x", "./x/..."), from root to mod, the module's directory
// relative to it: ./tools/funclen/ is ./funclen in tools. The others
// (flags, their values) stay as they are.
func inModule(root, mod string, args []string) []string {
	if mod == "." {
		return args
	}
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if !isDir(root, a) {
			continue
		}
		if rel, err := filepath.Rel(mod, filepath.FromSlash(a)); err == nil {
			out[i] = "./" + filepath.ToSlash(rel)
		}
	}
	return out
}

// isDir says whether arg names a directory under root, as a relative
// package path does, with or without a trailing /....
func isDir(root, arg string) bool {
	if arg != "." && !strings.HasPrefix(arg, "./") {
		return false
	}
	info, err := os.Stat(filepath.Join(root, strings.TrimSuffix(arg, "...")))
	return err == nil && info.IsDir()
}
