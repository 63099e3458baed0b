"""The peers, installed on demand under the build directory.

- Spark: the `pyspark` package from PyPI (it carries Spark's jars and
  scripts, and Hadoop's client) in a virtual environment of its own;
  SPARK_HOME is the installed package's directory.
- DistributedShell: Hadoop's example YARN application, its client and its
  dependencies copied out of Maven Central by `mvn
  dependency:copy-dependencies` on dshell/pom.xml. 3.5.0 is not on Maven
  Central; 3.4.2's client and AM run against the 3.5.0 mini cluster.

Each is installed once and reused while its pinned version is unchanged.
"""

import os
import shutil
import subprocess
import sys

from util import BenchError, run_logged

PYSPARK_VERSION = "4.3.0"  # the newest on PyPI when written; Spark 4 runs on Java 17
DSHELL_VERSION = "3.4.2"  # the newest hadoop-yarn-applications-distributedshell on Maven Central
DSHELL_CLIENT = "org.apache.hadoop.yarn.applications.distributedshell.Client"

HERE = os.path.dirname(os.path.abspath(__file__))


def java_home():
    """JAVA_HOME, or the JDK of the `java` on PATH. Containers start
    `$JAVA_HOME/bin/java` (Spark's and DistributedShell's AMs), with
    JAVA_HOME taken from the NodeManager's environment, so the cluster
    must be started with it set."""
    if os.environ.get("JAVA_HOME"):
        return os.environ["JAVA_HOME"]
    java = shutil.which("java")
    if not java:
        raise BenchError("java not found: the peers and the mini cluster need Java 17")
    return os.path.dirname(os.path.dirname(os.path.realpath(java)))


class Spark:
    def __init__(self, build_dir, log_dir):
        self.venv = os.path.join(build_dir, "venv")
        self.python = os.path.join(self.venv, "bin", "python")
        self.log = os.path.join(log_dir, "pip-pyspark.log")
        self.home = None

    def _installed_version(self):
        if not os.path.exists(self.python):
            return None
        r = subprocess.run([self.python, "-c", "import pyspark; print(pyspark.__version__)"],
                           capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 else None

    def install(self):
        if self._installed_version() != PYSPARK_VERSION:
            print(f"bench-compare: installing pyspark {PYSPARK_VERSION} from PyPI into {self.venv} "
                  f"(about 450 MB, once; log: {self.log})", file=sys.stderr, flush=True)
            if not os.path.exists(self.python):
                run_logged([sys.executable, "-m", "venv", self.venv], self.log,
                           what="creating the virtual environment for pyspark")
            run_logged([self.python, "-m", "pip", "install", "--disable-pip-version-check",
                        f"pyspark=={PYSPARK_VERSION}"], self.log,
                       what=f"installing pyspark {PYSPARK_VERSION} from PyPI")
            if self._installed_version() != PYSPARK_VERSION:
                raise BenchError(f"pyspark {PYSPARK_VERSION} is not importable after installing it (log: {self.log})")
        r = subprocess.run([self.python, "-c", "import os, pyspark; print(os.path.dirname(pyspark.__file__))"],
                           capture_output=True, text=True, check=True)
        self.home = r.stdout.strip()

    def submit_cmd(self, args):
        return [os.path.join(self.home, "bin", "spark-submit")] + args

    def env(self, base):
        env = dict(base)
        env["SPARK_HOME"] = self.home
        env["PYSPARK_PYTHON"] = self.python  # the driver's and any worker's Python
        env["PYSPARK_DRIVER_PYTHON"] = self.python
        env.pop("SPARK_CONF_DIR", None)  # Spark's defaults, nobody's site settings
        return env


class DistributedShell:
    def __init__(self, build_dir, log_dir):
        self.lib = os.path.join(build_dir, f"dshell-{DSHELL_VERSION}", "lib")
        self.jar = os.path.join(self.lib, f"hadoop-yarn-applications-distributedshell-{DSHELL_VERSION}.jar")
        self.conf = os.path.join(build_dir, "dshell-conf")
        self.log = os.path.join(log_dir, "mvn-dshell.log")
        self._stamp = os.path.join(os.path.dirname(self.lib), "complete")

    def install(self):
        if os.path.exists(self._stamp) and os.path.exists(self.jar):
            return
        print(f"bench-compare: fetching DistributedShell {DSHELL_VERSION} and its dependencies from "
              f"Maven Central (once; log: {self.log})", file=sys.stderr, flush=True)
        if shutil.which("mvn") is None:
            raise BenchError("mvn not found: fetching DistributedShell needs Maven")
        shutil.rmtree(self.lib, ignore_errors=True)
        run_logged(["mvn", "-B", "-q", "-f", os.path.join(HERE, "dshell", "pom.xml"),
                    f"-Ddshell.version={DSHELL_VERSION}", "dependency:copy-dependencies",
                    f"-DoutputDirectory={self.lib}", "-DincludeScope=runtime"], self.log,
                   what=f"fetching DistributedShell {DSHELL_VERSION} with Maven")
        if not os.path.exists(self.jar):
            raise BenchError(f"Maven ran but {self.jar} is missing (log: {self.log})")
        with open(self._stamp, "w") as f:
            f.write(DSHELL_VERSION + "\n")

    def write_conf(self, cluster_conf):
        """The cluster's client configuration, plus what DistributedShell's
        AM needs on a node that has no Hadoop installation: its classpath
        (yarn.application.classpath, which the client puts in the AM's
        CLASSPATH) names this configuration, so the AM finds the RM's
        scheduler address, and the jars fetched here; and a log4j
        configuration, so a failing AM says why in its container log."""
        shutil.rmtree(self.conf, ignore_errors=True)
        shutil.copytree(cluster_conf, self.conf)
        site = os.path.join(self.conf, "yarn-site.xml")
        with open(site) as f:
            xml = f.read()
        prop = ("<property><name>yarn.application.classpath</name>"
                f"<value>{self.conf},{self.lib}/*</value></property>\n")
        if "</configuration>" not in xml:
            raise BenchError(f"{site} has no </configuration>")
        with open(site, "w") as f:
            f.write(xml.replace("</configuration>", prop + "</configuration>"))
        with open(os.path.join(self.conf, "log4j.properties"), "w") as f:
            f.write("log4j.rootLogger=INFO,stderr\n"
                    "log4j.appender.stderr=org.apache.log4j.ConsoleAppender\n"
                    "log4j.appender.stderr.target=System.err\n"
                    "log4j.appender.stderr.layout=org.apache.log4j.PatternLayout\n"
                    "log4j.appender.stderr.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n\n")

    def client_cmd(self, args):
        return [os.path.join(java_home(), "bin", "java"), "-cp", f"{self.conf}:{self.lib}/*", DSHELL_CLIENT, "-jar", self.jar] + args
