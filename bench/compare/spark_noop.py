"""N no-op Spark tasks, for compare.py (run with the venv's spark-submit).

The tasks run in the JVM only: an RDD of N elements in N partitions
(JavaSparkContext.parallelize of Collections.nCopies), counted. Each task
iterates over one element and returns; no Python worker is started, as
Spindle's `builtin: noop` starts no process. A Python lambda
(rdd.foreach(lambda x: None)) would add a Python worker round trip per
task, which is not what is being compared.

Prints one JSON line, prefixed BENCH-RESULT, with wall-clock instants
(time.time(), the harness's clock): when the context was up, when the
action started and when it returned.
"""

import argparse
import json
import time

from pyspark import SparkConf, SparkContext


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, required=True)
    args = ap.parse_args()

    sc = SparkContext(conf=SparkConf().setAppName("bench-compare-noop"))
    sc.setLogLevel("WARN")
    context_up = time.time()

    jvm = sc._jvm
    rdd = sc._jsc.parallelize(jvm.java.util.Collections.nCopies(args.tasks, 0), args.tasks)
    job_start = time.time()
    count = rdd.count()
    job_done = time.time()
    if count != args.tasks:
        raise SystemExit(f"counted {count} elements, wanted {args.tasks}")

    print("BENCH-RESULT " + json.dumps({
        "tasks": args.tasks,
        "context_up": context_up,
        "job_start": job_start,
        "job_done": job_done,
        "app_id": sc.applicationId,
    }), flush=True)
    sc.stop()


if __name__ == "__main__":
    main()
