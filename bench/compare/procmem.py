"""Peak memory of process trees and YARN containers, sampled from /proc.

Both Spindle and its peers start several processes (executors, worker
JVMs, Python workers, a shell around every container), so a process's own
peak RSS understates what a run costs: what is sampled is the sum of RSS
over every process that belongs to the run, every INTERVAL seconds, and
the peak of those sums is reported. RSS counts shared pages (a JVM's
mapped jars, the Go binary's text) once per process, as `ps` does; the
same rule applies to every system measured.
"""

import os
import re
import threading

PAGE = os.sysconf("SC_PAGE_SIZE")
INTERVAL = 0.05  # seconds between samples: 20 a second

# A container's working directory, as the NodeManager creates it:
# .../usercache/USER/appcache/APP_ID/CONTAINER_ID[/...]
_CONTAINER_DIR = re.compile(r"/appcache/application_[0-9_]+/(container_(?:e\d+_)?\d+_\d+_\d+_\d+)(?:/|$)")


def _pids():
    return [int(d) for d in os.listdir("/proc") if d.isdigit()]


def _rss(pid):
    """Resident bytes of one process; 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def _ppid(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return None
    # The command name, in parentheses, may hold spaces: split after it.
    return int(stat[stat.rindex(")") + 2:].split()[1])


def tree_rss(root):
    """The summed RSS of ROOT and all its descendants, now."""
    children = {}
    for pid in _pids():
        ppid = _ppid(pid)
        if ppid is not None:
            children.setdefault(ppid, []).append(pid)
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += _rss(pid)
        todo.extend(children.get(pid, ()))
    return total


def container_rss(work_dir):
    """The summed RSS per YARN container id, now, of every process whose
    working directory is a container's under WORK_DIR (the mini cluster's
    NodeManagers' local directories). A container's launch script cds
    there and its processes inherit it, so this covers the container's
    process tree, the NodeManager's wrapper shells included, whatever
    session the processes run in."""
    work_dir = os.path.realpath(work_dir) + "/"
    sums = {}
    for pid in _pids():
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if not cwd.startswith(work_dir):
            continue
        m = _CONTAINER_DIR.search(cwd)
        if m:
            sums[m.group(1)] = sums.get(m.group(1), 0) + _rss(pid)
    return sums


class PeakSampler:
    """Calls MEASURE (returning {key: bytes}) every INTERVAL seconds on a
    thread of its own, from `with` to the end of the block, and keeps each
    key's peak in .peaks."""

    def __init__(self, measure, interval=INTERVAL):
        self._measure = measure
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.peaks = {}

    def _sample(self):
        for key, value in self._measure().items():
            if value > self.peaks.get(key, 0):
                self.peaks[key] = value

    def _run(self):
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(self._interval)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        return False


def sample_tree(pid):
    """A PeakSampler of the process tree under PID, keyed "tree"."""
    return PeakSampler(lambda: {"tree": tree_rss(pid)})


def sample_containers(work_dir):
    """A PeakSampler of every container's processes under WORK_DIR."""
    return PeakSampler(lambda: container_rss(work_dir))
