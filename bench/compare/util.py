"""Running commands for the harness: logged, timed, and never left behind."""

import os
import signal
import statistics
import subprocess
import time


class BenchError(Exception):
    """A failure the harness reports as one line naming what failed."""


def tail(path, lines=25):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError:
        return ""


def run_logged(cmd, log, what, env=None, cwd=None):
    """Runs CMD to the end with its output appended to LOG; a failure is a
    BenchError saying WHAT failed, with the log's last lines."""
    os.makedirs(os.path.dirname(log), exist_ok=True)
    with open(log, "a") as out:
        out.write("$ " + " ".join(cmd) + "\n")
        out.flush()
        r = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=cwd)
    if r.returncode != 0:
        raise BenchError(f"{what} failed (exit {r.returncode}); last lines of {log}:\n{tail(log)}")


class Measured:
    """One measured run of CMD: started with `with`, in a session of its
    own (so a failure can end its whole tree), output to LOG.

    .submitted is the wall-clock instant (time.time(), the clock the
    NodeManager's and the AM's logs use) taken just before the process is
    started; .exited the instant its exit was seen."""

    def __init__(self, cmd, log, what, env=None, timeout=600):
        self.cmd, self.log, self.what, self.env, self.timeout = cmd, log, what, env, timeout
        self.proc = None
        self.submitted = self.exited = None

    def __enter__(self):
        os.makedirs(os.path.dirname(self.log), exist_ok=True)
        self._out = open(self.log, "w")
        self._out.write("$ " + " ".join(self.cmd) + "\n")
        self._out.flush()
        self.submitted = time.time()
        self.proc = subprocess.Popen(self.cmd, stdout=self._out, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, env=self.env, start_new_session=True)
        return self

    def wait(self):
        """Waits for the exit; a failure or a timeout is a BenchError."""
        try:
            rc = self.proc.wait(timeout=max(1, self.submitted + self.timeout - time.time()))
        except subprocess.TimeoutExpired:
            self._kill()
            raise BenchError(f"{self.what} did not finish within {self.timeout}s; last lines of {self.log}:\n"
                             f"{tail(self.log)}")
        self.exited = time.time()
        if rc != 0:
            raise BenchError(f"{self.what} failed (exit {rc}); last lines of {self.log}:\n{tail(self.log)}")

    def _kill(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # our child's own session
        except ProcessLookupError:
            pass
        self.proc.wait()

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self._kill()
        self._out.close()
        return False

    def output(self):
        with open(self.log, errors="replace") as f:
            return f.read()


def summary(values):
    """Median, min and max of a list of numbers."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}
