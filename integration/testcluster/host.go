package testcluster

import (
	"fmt"
	"math/rand/v2"
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
	// The second ResourceManager's, bound only with RMS=2.
	"MINICLUSTER_RM1_PORT", "MINICLUSTER_RM1_SCHEDULER_PORT", "MINICLUSTER_RM1_TRACKER_PORT",
	"MINICLUSTER_RM1_ADMIN_PORT", "MINICLUSTER_RM1_WEB_PORT",
}

// PortEnv assigns every fixed port of a cluster a free loopback port, so
// clusters of different test processes never collide, as KEY=VALUE entries
// for minicluster.sh's environment. The ports come from below the kernel's
// range for outgoing connections: a port of that range, free when chosen,
// could be taken by any connection (the cluster's own, between its
// daemons) in the seconds before the JVM binds it.
func PortEnv() ([]string, error) {
	low, high := belowEphemeral()
	var env []string
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			l.Close()
		}
	}()
	for _, knob := range portKnobs {
		// Hold each listener until all are chosen so no port is handed out twice.
		var l net.Listener
		for tries := 0; l == nil; tries++ {
			if tries == 100 {
				return nil, fmt.Errorf("choosing a free port for %s: none free in %d-%d after %d tries", knob, low, high, tries)
			}
			l, _ = net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", low+rand.IntN(high-low+1)))
		}
		listeners = append(listeners, l)
		env = append(env, fmt.Sprintf("%s=%d", knob, l.Addr().(*net.TCPAddr).Port))
	}
	return env, nil
}

// belowEphemeral is a range of ports under the kernel's ephemeral range
// (net.ipv4.ip_local_port_range, 32768-60999 by default) and above the
// well-known and registered ports most daemons use.
func belowEphemeral() (low, high int) {
	first := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > 12000 {
				first = n
			}
		}
	}
	return 10000, first - 1
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
