package contain

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// LookPath finds a command as exec.LookPath does, but in the PATH of the
// environment env, the process's own rather than the guard's: a guard runs
// processes of many environments. The errors are exec's ("exec: "nope":
// executable file not found in $PATH").
func LookPath(file string, env []string) (string, error) {
	if strings.Contains(file, "/") {
		if err := executable(file); err != nil {
			return "", &exec.Error{Name: file, Err: err}
		}
		return file, nil
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v // the last wins, as in exec.Cmd
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "." // Unix shell semantics: an empty entry is the working directory
		}
		p := filepath.Join(dir, file)
		if executable(p) == nil {
			if !filepath.IsAbs(p) {
				return "", &exec.Error{Name: file, Err: exec.ErrDot}
			}
			return p, nil
		}
	}
	return "", &exec.Error{Name: file, Err: exec.ErrNotFound}
}

// executable is nil for a regular file someone may execute.
func executable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if m := fi.Mode(); m.IsDir() || m&0o111 == 0 {
		return fs.ErrPermission
	}
	return nil
}
