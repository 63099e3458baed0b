#!/usr/bin/env python3
"""Spindle side by side with Spark and DistributedShell (make bench-compare).

    bench/compare/compare.py [all|local|yarn-job|yarn-containers|report] [--spindle BIN] [--runs 3] ...

Installs its peers on demand (pyspark from PyPI into a virtual environment,
DistributedShell with Maven), runs each part's systems alternately, one
round after another (Spindle, peer, Spindle, peer, ...), and reports the
median of the runs with their spread. `all` writes the tables into
docs/benchmarks.md, between its bench-compare markers, and the raw runs
into build/bench-compare/results.json; a single part prints its table and
writes build/bench-compare/results-PART.json. See README.md beside this file
for what each figure means.
"""

import argparse
import json
import os
import signal
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources in the checkout

import report  # noqa: E402  (after the line above)
import systems  # noqa: E402
from minicluster import MiniCluster  # noqa: E402
from peers import DistributedShell, Spark, java_home  # noqa: E402
from util import BenchError  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(ROOT, "build", "bench-compare")


# Each part: whether it needs the mini cluster, the peer to install (an
# attribute of Context), its systems in the order of a round, Spindle first
# (label, a name for log files, runner), and the rows of its table (label,
# figure in the runs, unit, which way is better).
PARTS = {
    "local": {
        "title": "Local mode: no-op tasks on one machine",
        "cluster": False,
        "peer": "spark",
        "systems": [
            ("Spindle local[2] × 4 cores", "spindle", systems.spindle_local),
            ("Spark local[8]", "spark-local",
             lambda ctx, log: systems.spark_local(ctx, log, "local[8]")),
            ("Spark local-cluster[2,4,1024]", "spark-local-cluster",
             lambda ctx, log: systems.spark_local(ctx, log, "local-cluster[2,4,1024]")),
        ],
        "rows": [
            ("no-op tasks/s, submission → job done", "rate", "tasks/s", "higher"),
            ("no-op tasks/s, the job alone", "job_rate", "tasks/s", "higher"),
            ("peak memory of the process tree", "peak_rss", "MiB", "lower"),
        ],
    },
    "yarn-job": {
        "title": f"On YARN: a job of no-op tasks on {systems.EXECUTORS} executors",
        "cluster": True,
        "peer": "spark",
        "systems": [
            ("Spindle", "spindle", systems.spindle_yarn_job),
            ("Spark on YARN, client mode", "spark", systems.spark_yarn_job),
        ],
        "rows": [
            ("submission → job done", "submit_to_done_s", "s", "lower"),
            ("submission → client exited", "submit_to_exit_s", "s", "lower"),
            ("ApplicationMaster peak memory", "am_peak_rss", "MiB", "lower"),
        ],
    },
    "yarn-containers": {
        "title": f"On YARN: {systems.EXECUTORS} containers running `{systems.SLEEP_COMMAND}`",
        "cluster": True,
        "peer": "dshell",
        "systems": [
            ("Spindle", "spindle", systems.spindle_yarn_containers),
            ("DistributedShell", "dshell", systems.dshell_yarn_containers),
        ],
        "rows": [
            ("submission → AM container running", "submit_to_am_running_s", "s", "lower"),
            (f"submission → {systems.EXECUTORS} containers running", "submit_to_all_running_s", "s", "lower"),
            ("ApplicationMaster peak memory", "am_peak_rss", "MiB", "lower"),
        ],
    },
}


class Context:
    """What the runners need: the binary, the peers, the job specs, the
    cluster (while one is up) and the environments."""

    def __init__(self, args):
        self.spindle = os.path.abspath(args.spindle)
        self.spark_tasks = args.spark_tasks
        self.yarn_tasks = args.yarn_tasks
        self.noop_yaml = os.path.join(ROOT, "examples", "bench", "noop.yaml")
        self.env = dict(os.environ, JAVA_HOME=java_home())
        self.env.pop("HADOOP_CONF_DIR", None)  # local runs must not see a cluster
        self.spark = Spark(BUILD, os.path.join(BUILD, "logs"))
        self.dshell = DistributedShell(BUILD, os.path.join(BUILD, "logs"))
        self.cluster = None
        self.hadoop_version = None
        self.yarn_env = None
        self.yarn_noop_yaml = self._job("yarn-noop.yaml", "bench-compare-noop", self.yarn_tasks,
                                        "builtin: noop")
        self.sleep_yaml = self._job("yarn-sleep.yaml", "bench-compare-sleep", systems.EXECUTORS,
                                    f"command: {systems.SLEEP_COMMAND}")

    def _job(self, name, job, tasks, body):
        """Writes a one-stage job spec under the build directory."""
        path = os.path.join(BUILD, "jobs", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(f"name: {job}\nstages:\n  - name: s\n    tasks: {tasks}\n    {body}\n"
                    f"    resources: {{cpus: 1}}\n")
        return path

    def attach(self, cluster):
        self.cluster = cluster
        self.hadoop_version = cluster.hadoop_version
        self.yarn_env = dict(self.env, HADOOP_CONF_DIR=cluster.conf)
        self.dshell.write_conf(cluster.conf)


def log(msg):
    print(f"bench-compare: {msg}", file=sys.stderr, flush=True)


def run_part(ctx, name, runs):
    """A warm-up round, then RUNS rounds of the part's systems,
    alternating; the raw runs of the measured rounds. The warm-up, not
    recorded, leaves each system as a user's second submission finds it:
    the page cache holds its files, Spindle's binary is in the user's
    cache on HDFS (docs/yarn.md), Spark's and Hadoop's jars are read once."""
    part, out = PARTS[name], []
    for rnd in range(0, runs + 1):
        for system, slug, runner in part["systems"]:
            run_log = os.path.join(BUILD, "logs", f"{name}-{slug}-{rnd}.log")
            label = "warm-up" if rnd == 0 else f"round {rnd}/{runs}"
            log(f"{name} {label}: {system} (log: {os.path.relpath(run_log, ROOT)})")
            figures = runner(ctx, run_log)
            if rnd == 0:
                continue
            out.append({"part": name, "system": system, "round": rnd, **figures})
            log("  " + ", ".join(f"{k} {report.brief(k, v)}" for k, v in figures.items()
                                 if k not in ("cmd", "app")))
    return out


def measure(ctx, parts, runs, cluster_dir):
    """Runs the parts, local ones first with no cluster up, then those on
    a cluster started for them and stopped whatever happens."""
    raw = []
    for name in parts:
        if not PARTS[name]["cluster"]:
            raw += run_part(ctx, name, runs)
    on_cluster = [n for n in parts if PARTS[n]["cluster"]]
    if on_cluster:
        with MiniCluster(ROOT, cluster_dir, ctx.env) as cluster:
            ctx.attach(cluster)
            for name in on_cluster:
                raw += run_part(ctx, name, runs)
    return raw


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("part", nargs="?", default="all", choices=["all"] + list(PARTS) + ["report"],
                    help="what to measure (default all); report: write docs/benchmarks.md again from "
                         "build/bench-compare/results.json")
    ap.add_argument("--spindle", default=os.environ.get("SPINDLE_BIN", os.path.join(ROOT, "bin", "spindle")),
                    help="the spindle binary measured (default $SPINDLE_BIN or bin/spindle)")
    ap.add_argument("--runs", type=int, default=3, help="rounds per part (default 3)")
    ap.add_argument("--spark-tasks", type=int, default=10000,
                    help="no-op tasks of Spark's local runs (default 10000)")
    ap.add_argument("--yarn-tasks", type=int, default=1000,
                    help="no-op tasks of the YARN job, for every system (default 1000)")
    ap.add_argument("--cluster-dir", default=os.environ.get("BENCH_COMPARE_CLUSTER_DIR",
                                                            os.path.join(BUILD, "cluster")),
                    help="the mini cluster's directory (default build/bench-compare/cluster)")
    ap.add_argument("--no-doc", action="store_true", help="do not write docs/benchmarks.md")
    return ap.parse_args(argv)


def write_doc(results, parts):
    doc = os.path.join(ROOT, "docs", "benchmarks.md")
    tables = report.markdown(results, PARTS, parts, ROOT)
    report.write_section(doc, report.section(results, tables))
    log(f"wrote the tables into {os.path.relpath(doc, ROOT)}")


def main(argv):
    args = parse_args(argv)
    if args.part == "report":
        # Writes the doc again from the last full run's results.json.
        path = os.path.join(BUILD, "results.json")
        if not os.path.exists(path):
            raise BenchError(f"no {os.path.relpath(path, ROOT)}: run bench/compare/compare.py all first")
        with open(path) as f:
            write_doc(json.load(f), list(PARTS))
        return
    # SIGTERM ends the harness as ^C does: through the finally blocks that
    # stop the cluster and the runs' processes.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if not os.access(args.spindle, os.X_OK):
        raise BenchError(f"{args.spindle} is not an executable spindle binary (make build, or --spindle)")
    parts = list(PARTS) if args.part == "all" else [args.part]
    ctx = Context(args)
    for peer in dict.fromkeys(PARTS[p]["peer"] for p in parts):
        getattr(ctx, peer).install()

    raw = measure(ctx, parts, args.runs, args.cluster_dir)
    results = report.results(ctx, PARTS, parts, raw, ROOT)
    out = os.path.join(BUILD, "results.json" if args.part == "all" else f"results-{args.part}.json")
    with open(out, "w") as f:
        json.dump(results, f, indent=2)
    tables = report.markdown(results, PARTS, parts, ROOT)
    print(tables)
    log(f"raw runs in {os.path.relpath(out, ROOT)}")
    if args.part == "all" and not args.no_doc:
        write_doc(results, parts)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except BenchError as e:
        print(f"bench-compare: {e}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("bench-compare: interrupted", file=sys.stderr)
        sys.exit(130)
