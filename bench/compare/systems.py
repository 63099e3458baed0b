"""One measured run of each system: the command, what is timed, what is read
back. Every runner returns a dict of figures (seconds, bytes, tasks/s)
for results.json; the instants are wall-clock (time.time()), the clock of
the NodeManager's and the AMs' logs on this one machine."""

import datetime
import json
import os
import re

import procmem
from minicluster import am_container
from util import BenchError, Measured

HERE = os.path.dirname(os.path.abspath(__file__))
SPARK_JOB = os.path.join(HERE, "spark_noop.py")

# The YARN job shape, the same for every system: 4 executors (containers)
# of 1 core and 512 MiB each.
EXECUTORS = 4
EXECUTOR_CORES = 1
EXECUTOR_MEMORY_MB = 512
SLEEP_COMMAND = "sleep 5"  # what each of part 3's containers runs


def _search(pattern, text, what):
    m = re.search(pattern, text, re.M)
    if not m:
        raise BenchError(f"{what}: /{pattern}/ not found in its output")
    return m


def _spark_result(run):
    """The BENCH-RESULT line spark_noop.py prints."""
    line = _search(r"^BENCH-RESULT (\{.*\})$", run.output(), run.what).group(1)
    return json.loads(line)


# ---- local mode ---------------------------------------------------------


def spindle_local(ctx, log):
    """Spindle's local mode on examples/bench/noop.yaml (100,000 builtin
    no-op tasks: no process per task). Job done is the process's exit:
    the CLI returns right after the job's summary."""
    cmd = [ctx.spindle, "submit", "--master", "local[2]", "--conf", "spindle.executor.cores=4",
           ctx.noop_yaml]
    with Measured(cmd, log, "spindle local mode", env=ctx.env) as run:
        with procmem.sample_tree(run.proc.pid) as mem:
            run.wait()
    out = run.output()
    tasks = int(_search(r"^\s+tasks (\d+),", out, run.what).group(1))
    elapsed = run.exited - run.submitted
    return {"cmd": cmd, "tasks": tasks, "submit_to_done_s": elapsed, "rate": tasks / elapsed,
            # the driver's own figure: from the job's start to its end
            "job_rate": float(_search(r"duration \S+, ([\d.]+) tasks/s", out, run.what).group(1)),
            "peak_rss": mem.peaks.get("tree", 0)}


def spark_local(ctx, log, master):
    """Spark in MASTER (local[8], local-cluster[...]) on spark_noop.py: N
    tasks that each count one element, in the JVM. Job done is the
    instant the action returned in the driver (before sc.stop())."""
    cmd = ctx.spark.submit_cmd(["--master", master, SPARK_JOB, "--tasks", str(ctx.spark_tasks)])
    with Measured(cmd, log, f"spark {master}", env=ctx.spark.env(ctx.env)) as run:
        with procmem.sample_tree(run.proc.pid) as mem:
            run.wait()
    r = _spark_result(run)
    elapsed = r["job_done"] - run.submitted
    return {"cmd": cmd, "tasks": r["tasks"], "submit_to_done_s": elapsed, "rate": r["tasks"] / elapsed,
            "job_rate": r["tasks"] / (r["job_done"] - r["job_start"]),
            "peak_rss": mem.peaks.get("tree", 0)}


# ---- on YARN: a no-op job ----------------------------------------------


def _on_yarn(ctx, cmd, log, what, env):
    """Runs cmd to its end, sampling the memory of every container."""
    with Measured(cmd, log, what, env=env) as run:
        with procmem.sample_containers(ctx.cluster.work) as mem:
            run.wait()
    return run, mem


def _spindle_yarn_cmd(ctx, job):
    return [ctx.spindle, "submit", "--master", "yarn", "--num-executors", str(EXECUTORS),
            "--executor-cores", str(EXECUTOR_CORES), "--executor-memory", f"{EXECUTOR_MEMORY_MB}m", job]


def _spindle_app(run):
    return _search(r"submitted (application_\d+_\d+)", run.output(), run.what).group(1)


def _am_peak(mem, app_id, what):
    peak = mem.peaks.get(am_container(app_id))
    if not peak:
        raise BenchError(f"{what}: no process of its AM container {am_container(app_id)} was seen")
    return peak


def _spindle_job_done(ctx, app_id):
    """When the AM logged the job's success, from its am.stderr."""
    am_log = ctx.cluster.container_log(am_container(app_id), "am.stderr")
    with open(am_log) as f:
        text = f.read()
    m = _search(r'^time="([^"]+)" level=info msg="job succeeded', text, f"the AM log {am_log}")
    return datetime.datetime.fromisoformat(m.group(1)).timestamp()


def spindle_yarn_job(ctx, log):
    cmd = _spindle_yarn_cmd(ctx, ctx.yarn_noop_yaml)
    run, mem = _on_yarn(ctx, cmd, log, "spindle on YARN", ctx.yarn_env)
    app = _spindle_app(run)
    done = _spindle_job_done(ctx, app)
    return {"cmd": cmd, "app": app, "tasks": ctx.yarn_tasks, "submit_to_done_s": done - run.submitted,
            "submit_to_exit_s": run.exited - run.submitted, "am_peak_rss": _am_peak(mem, app, run.what)}


def spark_yarn_job(ctx, log):
    """Spark on YARN in client mode: the driver in the submitting process,
    an ExecutorLauncher as the AM. spark.yarn.jars/archive are unset, so
    each submission uploads Spark's jars: part of its cost."""
    cmd = ctx.spark.submit_cmd(["--master", "yarn", "--deploy-mode", "client",
                                "--num-executors", str(EXECUTORS), "--executor-cores", str(EXECUTOR_CORES),
                                "--executor-memory", f"{EXECUTOR_MEMORY_MB}m",
                                SPARK_JOB, "--tasks", str(ctx.yarn_tasks)])
    run, mem = _on_yarn(ctx, cmd, log, "spark on YARN", ctx.spark.env(ctx.yarn_env))
    r = _spark_result(run)
    return {"cmd": cmd, "app": r["app_id"], "tasks": r["tasks"], "submit_to_done_s": r["job_done"] - run.submitted,
            "submit_to_exit_s": run.exited - run.submitted, "am_peak_rss": _am_peak(mem, r["app_id"], run.what)}


# ---- on YARN: containers running ------------------------------------------


def _container_times(ctx, app_id, submitted, what):
    """Submission → the AM container RUNNING, and → the EXECUTORS-th other
    container RUNNING, by the NodeManagers' log."""
    times = ctx.cluster.running_times(app_id)
    am = am_container(app_id)
    if am not in times:
        raise BenchError(f"{what}: the NodeManager log has no RUNNING for its AM container {am}")
    others = sorted(t for c, t in times.items() if c != am)
    if len(others) < EXECUTORS:
        raise BenchError(f"{what}: only {len(others)} of {EXECUTORS} containers reached RUNNING in the "
                         f"NodeManager log of {app_id}")
    am_s, all_s = times[am] - submitted, others[EXECUTORS - 1] - submitted
    if am_s <= 0:
        raise BenchError(f"{what}: the AM container ran {am_s:.3f}s after submission: the NodeManager log's "
                         f"clock or time zone is not this process's")
    return am_s, all_s


def spindle_yarn_containers(ctx, log):
    cmd = _spindle_yarn_cmd(ctx, ctx.sleep_yaml)
    run, mem = _on_yarn(ctx, cmd, log, "spindle on YARN (containers)", ctx.yarn_env)
    app = _spindle_app(run)
    am_s, all_s = _container_times(ctx, app, run.submitted, run.what)
    return {"cmd": cmd, "app": app, "submit_to_am_running_s": am_s, "submit_to_all_running_s": all_s,
            "submit_to_exit_s": run.exited - run.submitted, "am_peak_rss": _am_peak(mem, app, run.what)}


def dshell_yarn_containers(ctx, log):
    """DistributedShell's client, run with java (no `yarn` script here): it
    stages the AM's jar on HDFS, submits, and follows the application."""
    cmd = ctx.dshell.client_cmd(["-shell_command", SLEEP_COMMAND, "-num_containers", str(EXECUTORS),
                                 "-container_memory", str(EXECUTOR_MEMORY_MB),
                                 "-container_vcores", str(EXECUTOR_CORES),
                                 "-master_memory", "256", "-master_vcores", "1"])
    run, mem = _on_yarn(ctx, cmd, log, "DistributedShell", ctx.yarn_env)
    out = run.output()
    app = _search(r"Submitted application (application_\d+_\d+)", out, run.what).group(1)
    if "Application completed successfully" not in out:
        raise BenchError(f"DistributedShell's application {app} did not succeed; see {log}")
    am_s, all_s = _container_times(ctx, app, run.submitted, run.what)
    return {"cmd": cmd, "app": app, "submit_to_am_running_s": am_s, "submit_to_all_running_s": all_s,
            "submit_to_exit_s": run.exited - run.submitted, "am_peak_rss": _am_peak(mem, app, run.what)}
