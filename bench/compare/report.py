"""Results: the raw runs and their summary (results.json), the Markdown
tables, and the section of docs/benchmarks.md they replace."""

import datetime
import os
import platform
import re
import shlex
import subprocess
import textwrap

import peers
import systems
from util import summary

BEGIN = "<!-- bench-compare:begin -->"
END = "<!-- bench-compare:end -->"
MIB = 1 << 20


# ---- figures --------------------------------------------------------------


def fmt(value, unit):
    if unit == "MiB":
        mib = value / MIB
        return f"{mib:.0f}" if mib >= 100 else f"{mib:.1f}"
    if unit == "tasks/s":
        return f"{value:,.0f}"
    return f"{value:.2f}"


def brief(key, value):
    """A figure of results.json for the progress lines."""
    if key.endswith("_s"):
        return f"{value:.2f}s"
    if key.endswith("rss"):
        return f"{value / MIB:.1f}MiB"
    if key.endswith("rate"):
        return f"{value:,.0f}/s"
    return str(value)


def advantage(spindle, peer, better):
    """How many times better Spindle's median is than the peer's: a
    higher rate, a shorter time, less memory. Below 1: the peer's is."""
    r = spindle / peer if better == "higher" else peer / spindle
    return f"{r:.1f}×" if r < 10 else f"{r:.0f}×"


# ---- the record -----------------------------------------------------------


def _first_line(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
        return (r.stdout + r.stderr).strip().splitlines()[0]
    except (OSError, IndexError):
        return "?"


def machine():
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        mem_kib = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1))
    return {"cores": os.cpu_count(), "memory_gib": round(mem_kib / (1 << 20), 1), "cpu": cpu,
            "kernel": platform.release(), "load_avg_at_start": os.getloadavg()}


def versions(ctx):
    return {"spindle": _first_line([ctx.spindle, "--version"]),
            "go": _first_line(["go", "version"]),
            "java": _first_line(["java", "-version"]),
            "spark": peers.PYSPARK_VERSION if ctx.spark.home else None,
            "hadoop_cluster": ctx.hadoop_version,
            "distributedshell": peers.DSHELL_VERSION if ctx.cluster else None,
            "python": platform.python_version()}


def shown(cmd, ctx, root):
    """A command as the doc shows it: paths relative to the checkout, the
    pyspark package as $SPARK_HOME, the JDK as $JAVA_HOME."""
    text = shlex.join(cmd).replace(peers.java_home() + "/", "$JAVA_HOME/")
    if ctx.spark.home:
        text = text.replace(ctx.spark.home, "$SPARK_HOME")
    return text.replace(root + "/", "")


def results(ctx, parts_def, parts, raw, root):
    out = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
           "machine": machine(), "versions": versions(ctx),
           "settings": {"runs": max(r["round"] for r in raw), "spark_local_tasks": ctx.spark_tasks,
                        "yarn_tasks": ctx.yarn_tasks, "executors": systems.EXECUTORS,
                        "executor_cores": systems.EXECUTOR_CORES,
                        "executor_memory_mb": systems.EXECUTOR_MEMORY_MB,
                        "sample_interval_s": 0.05},
           "commands": {}, "job_specs": {}, "summary": {}, "runs": raw}
    for path in (ctx.yarn_noop_yaml, ctx.sleep_yaml):
        with open(path) as f:
            out["job_specs"][os.path.relpath(path, root)] = f.read()
    for name in parts:
        names = [s[0] for s in parts_def[name]["systems"]]
        out["commands"][name] = {s: shown(next(r["cmd"] for r in raw if r["part"] == name and r["system"] == s),
                                          ctx, root) for s in names}
        out["summary"][name] = [
            {"label": label, "figure": key, "unit": unit, "better": better,
             "values": {s: summary([r[key] for r in raw if r["part"] == name and r["system"] == s])
                        for s in names}}
            for label, key, unit, better in parts_def[name]["rows"]]
    return out


# ---- Markdown -------------------------------------------------------------


def _cell(v, unit):
    return f"{fmt(v['median'], unit)} ({fmt(v['min'], unit)}–{fmt(v['max'], unit)})"


def table(results, parts_def, name):
    names = [s[0] for s in parts_def[name]["systems"]]
    head = "| | " + names[0] + " | " + " | ".join(f"{p} | Spindle's edge" for p in names[1:]) + " |"
    rule = "|---|" + "---:|" * (1 + 2 * (len(names) - 1))
    lines = [head, rule]
    for row in results["summary"][name]:
        v, unit = row["values"], row["unit"]
        cells = [_cell(v[names[0]], unit)]
        for p in names[1:]:
            cells += [_cell(v[p], unit), advantage(v[names[0]]["median"], v[p]["median"], row["better"])]
        lines.append(f"| {row['label']} ({unit}) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def markdown(results, parts_def, parts, root):
    out = []
    for name in parts:
        out.append(f"### {parts_def[name]['title']}\n")
        out.append("```sh")
        out += [results["commands"][name][s] for s in results["commands"][name]]
        out.append("```\n")
        out.append(table(results, parts_def, name) + "\n")
    return "\n".join(out)


def _fill(*paragraphs):
    return "\n\n".join(textwrap.fill(p, width=72, break_on_hyphens=False, break_long_words=False)
                       for p in paragraphs)


def section(results, tables):
    """The doc's section: where and how it was measured, the job specs
    the harness generated, then the tables."""
    m, v, s = results["machine"], results["versions"], results["settings"]
    load = ", ".join(f"{x:.2f}" for x in m["load_avg_at_start"])
    intro = _fill(
        f"Written by `make bench-compare` (bench/compare/; its README says what each figure means and "
        f"what is timed) on {results['date']}: {m['cores']} cores ({m['cpu']}), {m['memory_gib']} GiB, "
        f"Linux {m['kernel']}, load average {load} at the start; {v['spindle']}; Spark {v['spark']} "
        f"(pyspark from PyPI); a Hadoop {v['hadoop_cluster']} mini cluster (integration/minicluster.sh, "
        f"2 NodeManagers); DistributedShell {v['distributedshell']}'s client and AM; {v['java']}.",
        f"Each cell is the median of {s['runs']} runs, with their min–max; the systems ran alternately "
        "(Spindle, peer, Spindle, peer, ...) after a round of warm-up. \"Spindle's edge\" is how many times better Spindle's median "
        "is (a higher rate, a shorter time, less memory). Memory is the peak, sampled every 50 ms from "
        "/proc, of the summed RSS of the whole process tree (locally) or of every process in the AM's "
        "container (on YARN: the AM and the NodeManager's wrapper shells). Submission is the instant "
        "before the client process starts; a job is done when the action returns in Spark's driver, "
        "when Spindle's local CLI exits, and when Spindle's AM logs the job's success on YARN; a "
        "container is running when the NodeManager logs its SCHEDULED → RUNNING transition.",
        "Spindle's local job is examples/bench/noop.yaml (100,000 `builtin: noop` tasks, no process "
        f"per task); Spark's is {s['spark_local_tasks']:,} tasks that each count one element in the JVM "
        "(no Python worker; bench/compare/spark_noop.py). On YARN each runs "
        f"{s['yarn_tasks']:,} of its own no-op tasks on {s['executors']} executors of "
        f"{s['executor_cores']} core and {s['executor_memory_mb']} MiB, with HADOOP_CONF_DIR naming the "
        "cluster's configuration. Spark's defaults are kept: on YARN it uploads its jars at every "
        "submission, and its first job waits until 80% of the executors have registered, or 30 s "
        "(spark.scheduler.minRegisteredResourcesRatio, maxRegisteredResourcesWaitingTime).")
    specs = "\n".join(f"# {path}\n{text.rstrip()}" for path, text in results["job_specs"].items())
    return (f"{BEGIN}\n## Side by side: Spark and DistributedShell\n\n{intro}\n\n"
            f"The job specs the harness writes:\n\n```yaml\n{specs}\n```\n\n{tables.rstrip()}\n\n{END}\n")


def write_section(doc, text):
    """Replaces the marked section of DOC, or appends it."""
    with open(doc) as f:
        content = f.read()
    if BEGIN in content and END in content:
        start, end = content.index(BEGIN), content.index(END) + len(END)
        content = content[:start] + text.rstrip("\n") + content[end:]
    else:
        content = content.rstrip("\n") + "\n\n" + text
    with open(doc, "w") as f:
        f.write(content if content.endswith("\n") else content + "\n")
