package hadoopconf

import (
	"os"
	"os/user"
	"path/filepath"
)

// SystemProperties returns the Java system properties a site file may
// refer to, as a JVM on this machine would set them: user.name, user.home,
// user.dir, java.io.tmpdir and the separators. The user comes from the
// OS account, falling back to $USER and $HOME (a container's uid may have
// no passwd entry). Callers may add to or override the map before use.
func SystemProperties(lookupEnv func(string) (string, bool)) map[string]string {
	props := map[string]string{
		// Java's default on Unix, whatever $TMPDIR says.
		"java.io.tmpdir": "/tmp",
		"file.separator": string(filepath.Separator),
		"path.separator": string(filepath.ListSeparator),
		"line.separator": "\n",
	}
	if u, err := user.Current(); err == nil {
		props["user.name"] = u.Username
		props["user.home"] = u.HomeDir
	} else {
		if v, ok := lookupEnv("USER"); ok {
			props["user.name"] = v
		}
		if v, ok := lookupEnv("HOME"); ok {
			props["user.home"] = v
		}
	}
	if wd, err := os.Getwd(); err == nil {
		props["user.dir"] = wd
	}
	return props
}
