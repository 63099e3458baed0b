"""The mini cluster the YARN figures are measured on, and what its logs say.

The cluster is integration/minicluster.sh's, started in a directory of the
harness's own and stopped at the end whatever happens. The environment is
passed through, so its knobs (MINICLUSTER_*_PORT, NODEMANAGERS, ...) apply.
"""

import datetime
import glob
import os
import re
import subprocess
import sys

from util import BenchError

# "2026-11-23 20:47:36,808 INFO [NM ContainerManager dispatcher] container.ContainerImpl:
#  Container container_..._01_000003 transitioned from SCHEDULED to RUNNING"
_RUNNING = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) .*Container (container_\S+) "
                      r"transitioned from SCHEDULED to RUNNING")


def _log4j_time(stamp):
    """A log4j timestamp as epoch seconds. It is the JVM's local time, and
    Python's naive datetime is read as local time too: same machine, same
    zone."""
    return datetime.datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S,%f").timestamp()


class MiniCluster:
    def __init__(self, root, cluster_dir, env):
        self.script = os.path.join(root, "integration", "minicluster.sh")
        self.dir = os.path.realpath(cluster_dir)
        self.env = dict(env)
        # The cluster stops by itself if the harness dies without stopping it.
        self.env["MINICLUSTER_OWNER_PID"] = str(os.getpid())
        self.conf = None
        self.hadoop_version = None

    def start(self):
        print(f"bench-compare: starting the mini cluster in {self.dir}", file=sys.stderr, flush=True)
        r = subprocess.run([self.script, "start", self.dir], env=self.env, capture_output=True, text=True)
        if r.returncode != 0:
            raise BenchError(f"starting the mini cluster failed (exit {r.returncode}):\n{r.stderr[-3000:]}")
        self.conf = os.path.join(self.dir, "conf")
        self.hadoop_version = self._cluster_env().get("HADOOP_VERSION", "?")

    def stop(self):
        subprocess.run([self.script, "stop", self.dir], env=self.env, capture_output=True)

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        print("bench-compare: stopping the mini cluster", file=sys.stderr, flush=True)
        self.stop()
        return False

    def _cluster_env(self):
        out = {}
        with open(os.path.join(self.dir, "cluster.env")) as f:
            for line in f:
                key, _, value = line.strip().partition("=")
                out[key] = value
        return out

    @property
    def work(self):
        return os.path.join(self.dir, "work")

    def running_times(self, app_id):
        """{container id: epoch seconds} of the application's containers'
        SCHEDULED → RUNNING transitions, from the NodeManagers' log."""
        prefix = "container_" + app_id[len("application_"):] + "_"
        times = {}
        with open(os.path.join(self.dir, "logs", "nodemanager.log"), errors="replace") as f:
            for line in f:
                m = _RUNNING.match(line)
                if m and m.group(2).startswith(prefix):
                    times.setdefault(m.group(2), _log4j_time(m.group(1)))
        return times

    def container_log(self, container_id, name):
        """A container's log file NAME (am.stderr, ...), wherever the
        NodeManager that ran it keeps its logs."""
        app = "application_" + "_".join(container_id.split("_")[1:3])
        hits = glob.glob(os.path.join(self.work, "**", app, container_id, name), recursive=True)
        if not hits:
            raise BenchError(f"no {name} of {container_id} under {self.work}")
        return hits[0]


def am_container(app_id):
    """The id of an application's first AM container."""
    return "container_" + app_id[len("application_"):] + "_01_000001"
