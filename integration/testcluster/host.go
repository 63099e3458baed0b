package testcluster

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Script is the path of integration/minicluster.sh, found from the working
// directory (a package directory under the repository while testing).
func Script() string {
	dir, err := os.Getwd()
	if err != nil {
		return "integration/minicluster.sh"
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "integration", "minicluster.sh")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "integration/minicluster.sh"
		}
		dir = parent
	}
}

// portKnobs are the minicluster.sh variables naming the ports it binds.
var portKnobs = []string{
	"MINICLUSTER_RM_PORT", "MINICLUSTER_RM_SCHEDULER_PORT", "MINICLUSTER_RM_TRACKER_PORT",
	"MINICLUSTER_RM_ADMIN_PORT", "MINICLUSTER_RM_WEB_PORT", "MINICLUSTER_NN_PORT",
	"MINICLUSTER_NN_HTTP_PORT",
}

// PortEnv assigns every fixed port of a cluster a free loopback port, so
// clusters of different test processes never collide, as KEY=VALUE entries
// for minicluster.sh's environment.
func PortEnv() ([]string, error) {
	var env []string
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			l.Close()
		}
	}()
	for _, knob := range portKnobs {
		// Hold each listener until all are chosen so no port is handed out twice.
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("choosing a free port for %s: %w", knob, err)
		}
		listeners = append(listeners, l)
		env = append(env, fmt.Sprintf("%s=%d", knob, l.Addr().(*net.TCPAddr).Port))
	}
	return env, nil
}

// ProcessesUnder lists the processes whose working directory or command
// line names dir: what a cluster in dir, and the containers it launched,
// would leave running.
func ProcessesUnder(dir string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cwd, _ := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if cwd == dir || strings.HasPrefix(cwd, dir+"/") || strings.Contains(string(cmdline), "--dir="+dir+"\x00") {
			pids = append(pids, pid)
		}
	}
	return pids
}

// LogTail returns the last lines of each log in dir/logs.
func LogTail(dir string, lines int) string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(dir, "logs", "*"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil || len(data) == 0 {
			continue
		}
		all := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		if len(all) > lines {
			all = all[len(all)-lines:]
		}
		fmt.Fprintf(&b, "----- %s\n%s\n", f, strings.Join(all, "\n"))
	}
	return b.String()
}
