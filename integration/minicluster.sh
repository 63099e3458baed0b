#!/usr/bin/env bash
# A real Hadoop cluster for Spindle's tests: Hadoop's MiniYARNCluster and
# MiniDFSCluster in one JVM, started by our harness in integration/minicluster.
#
#   integration/minicluster.sh start [DIR]   background; returns when ready;
#                                            last line HADOOP_CONF_DIR=DIR/conf
#   integration/minicluster.sh status [DIR]  exit 0 iff up
#   integration/minicluster.sh stop [DIR]    nothing left running
#
# Fault controls on a running cluster (each waits until the RM shows the
# action done, prints what happened, exits non-zero with the harness's error):
#   integration/minicluster.sh restart-rm DIR      RM restart, work-preserving
#   integration/minicluster.sh stop-nm DIR I       NodeManager I stops (SHUTDOWN)
#   integration/minicluster.sh start-nm DIR I      a new NodeManager in slot I
#   integration/minicluster.sh decommission DIR I [TIMEOUT_S]   graceful
#   integration/minicluster.sh failover-rm DIR     RMS=2: the standby becomes active
#
# Hadoop's own `yarn logs` (LogsCLI) against the cluster in DIR, as its
# client configuration says (LOG_AGGREGATION=1, after an application ends):
#   integration/minicluster.sh yarn-logs DIR -applicationId APP_ID [LogsCLI options]
#
# DIR defaults to integration/.cluster. Logs land in DIR/logs.
#
# Knobs (environment):
#   NODEMANAGERS (2)  GPUS_PER_NODE (4)  FPGAS_PER_NODE (2)  HADOOP_VERSION (3.5.0)
#   MINICLUSTER_NM_MEMORY_MB (8192)  MINICLUSTER_NM_VCORES (8)
#   MINICLUSTER_HOST (127.0.0.1)
#   RPC_PROTECTION or MINICLUSTER_RPC_PROTECTION (authentication | integrity |
#     privacy; RPC_PROTECTION wins when both are set)
#   PREEMPTION (0)  1: queues default and high, the preemption monitor on
#   LOG_AGGREGATION (1)  NodeManagers upload ended applications' logs to
#     HDFS (/tmp/logs), where `yarn logs` finds them; 0: local logs only
#   RMS (1)  2: an HA pair of ResourceManagers, rm0 (active) and rm1, whose
#     ports are MINICLUSTER_RM1_PORT (18032), _RM1_SCHEDULER_PORT (18030),
#     _RM1_TRACKER_PORT (18031), _RM1_ADMIN_PORT (18033), _RM1_WEB_PORT (18088)
#   PLACEMENT (disabled)  processor | scheduler: the RM's
#     yarn.resourcemanager.placement-constraints.handler (placement-processor,
#     or the CapacityScheduler's own), so SchedulingRequests are placed
#   NODE_ATTRIBUTES ("")  e.g. "0:gpu_type=A100,1:gpu_type=T4": centralized
#     node attributes (rm.yarn.io/) on NodeManager I
#   NODE_LABELS ("")  e.g. "0:gpu-a100": the label added to the cluster, put
#     on NodeManager I (exclusive), and the queues allowed to use all of it
#   MINICLUSTER_CONTROL_TIMEOUT (180)  seconds a control waits for an answer
#   KERBEROS (0)  1: a KDC (MiniKdc) and a Kerberized cluster; start then
#     prints KRB5_CONFIG=, SPINDLE_TEST_PRINCIPAL= and SPINDLE_TEST_KEYTAB=
#     lines before its last
#   TOKEN_MAX_LIFETIME_S, TOKEN_RENEW_INTERVAL_S  delegation tokens' lives
#     (unset: Hadoop's 7 days and 1 day)
#   MINICLUSTER_RM_PORT (8032)  MINICLUSTER_RM_SCHEDULER_PORT (8030)
#   MINICLUSTER_RM_TRACKER_PORT (8031)  MINICLUSTER_RM_ADMIN_PORT (8033)
#   MINICLUSTER_RM_WEB_PORT (8088)  MINICLUSTER_NN_PORT (8020)
#   MINICLUSTER_NN_HTTP_PORT (9870)
#   MINICLUSTER_OWNER_PID   the cluster stops by itself when this process exits
#   MINICLUSTER_HEAP (1536m)  MINICLUSTER_START_TIMEOUT (180, seconds)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
harness="$here/minicluster"
main_class=io.spindle.minicluster.Main

: "${NODEMANAGERS:=2}"
: "${GPUS_PER_NODE:=4}"
: "${FPGAS_PER_NODE:=2}"
: "${HADOOP_VERSION:=3.5.0}"
: "${MINICLUSTER_HOST:=127.0.0.1}"
: "${MINICLUSTER_RPC_PROTECTION:=authentication}"
MINICLUSTER_RPC_PROTECTION=${RPC_PROTECTION:-$MINICLUSTER_RPC_PROTECTION}
: "${KERBEROS:=0}"
: "${PREEMPTION:=0}"
: "${LOG_AGGREGATION:=1}"
: "${RMS:=1}"
: "${PLACEMENT:=disabled}"
[[ $PLACEMENT =~ ^(disabled|processor|scheduler)$ ]] || { echo "minicluster: PLACEMENT=$PLACEMENT: want disabled, processor or scheduler" >&2; exit 2; }
: "${NODE_ATTRIBUTES:=}"
: "${NODE_LABELS:=}"
[[ $RMS =~ ^[12]$ ]] || { echo "minicluster: RMS=$RMS: want 1, or 2 for an HA pair" >&2; exit 2; }
: "${TOKEN_MAX_LIFETIME_S:=0}"
: "${TOKEN_RENEW_INTERVAL_S:=0}"
[[ $KERBEROS =~ ^[01]$ ]] || { echo "minicluster: KERBEROS=$KERBEROS: want 0 or 1" >&2; exit 2; }
[[ $PREEMPTION =~ ^[01]$ ]] || { echo "minicluster: PREEMPTION=$PREEMPTION: want 0 or 1" >&2; exit 2; }
[[ $LOG_AGGREGATION =~ ^[01]$ ]] || { echo "minicluster: LOG_AGGREGATION=$LOG_AGGREGATION: want 0 or 1" >&2; exit 2; }
: "${MINICLUSTER_CONTROL_TIMEOUT:=180}"
: "${MINICLUSTER_RM_PORT:=8032}"
: "${MINICLUSTER_RM_SCHEDULER_PORT:=8030}"
: "${MINICLUSTER_RM_TRACKER_PORT:=8031}"
: "${MINICLUSTER_RM_ADMIN_PORT:=8033}"
: "${MINICLUSTER_RM_WEB_PORT:=8088}"
: "${MINICLUSTER_RM1_PORT:=18032}"
: "${MINICLUSTER_RM1_SCHEDULER_PORT:=18030}"
: "${MINICLUSTER_RM1_TRACKER_PORT:=18031}"
: "${MINICLUSTER_RM1_ADMIN_PORT:=18033}"
: "${MINICLUSTER_RM1_WEB_PORT:=18088}"
: "${MINICLUSTER_NN_PORT:=8020}"
: "${MINICLUSTER_NN_HTTP_PORT:=9870}"
: "${MINICLUSTER_NM_MEMORY_MB:=8192}"
: "${MINICLUSTER_NM_VCORES:=8}"
: "${MINICLUSTER_OWNER_PID:=0}"
: "${MINICLUSTER_HEAP:=1536m}"
: "${MINICLUSTER_START_TIMEOUT:=180}"
[[ $HADOOP_VERSION =~ ^[0-9]+(\.[0-9]+)*$ ]] || { echo "minicluster: HADOOP_VERSION=$HADOOP_VERSION is not a version like 3.5.0" >&2; exit 2; }
build_dir="$harness/target/hadoop-$HADOOP_VERSION"

# Hadoop 3.5 reflects into these JDK internals; Java 17 refuses without them.
java_opens=(
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-opens=java.base/java.util.regex=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/sun.nio.cs=ALL-UNNAMED
  --add-opens=java.base/sun.security.action=ALL-UNNAMED
  --add-opens=java.base/sun.util.calendar=ALL-UNNAMED
  --add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-exports=java.base/sun.net.dns=ALL-UNNAMED
  --add-exports=java.base/sun.net.util=ALL-UNNAMED
)

die() {
  echo "minicluster: $*" >&2
  exit 1
}

usage() {
  echo "usage: $0 start|status|stop [DIR]" >&2
  echo "       $0 restart-rm|failover-rm DIR | stop-nm|start-nm DIR I | decommission DIR I [TIMEOUT_S]" >&2
  echo "       $0 yarn-logs DIR -applicationId APP_ID [LogsCLI options]" >&2
  exit 2
}

# DIR as an absolute path with symlinks resolved, as the JVM and /proc see it.
abs_dir() {
  realpath -m "${1:-$here/.cluster}"
}

# The pid of the cluster JVM serving DIR, if one is alive. The command line
# is checked too, so a recycled pid is never mistaken for the cluster.
cluster_pid() {
  local dir=$1 pid
  [ -f "$dir/pid" ] || return 1
  pid=$(cat "$dir/pid")
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$main_class --dir=$dir " || return 1
  echo "$pid"
}

# Processes working under DIR/work: the containers the NodeManagers started
# (they run in sessions of their own, so no process group covers them). The
# caller's own ancestry is spared: a shell sitting in a container's directory
# must survive `stop`.
processes_under() {
  local dir=$1 p pid cwd spare=" " a=$$
  while [ "$a" -gt 1 ]; do
    spare+="$a "
    a=$(awk '/^PPid:/ {print $2}' "/proc/$a/status" 2>/dev/null) || break
    [ -n "$a" ] || break
  done
  for p in /proc/[0-9]*; do
    pid=${p#/proc/}
    cwd=$(readlink "$p/cwd" 2>/dev/null) || continue
    case "$cwd/" in
      "$dir"/work/*) [[ $spare == *" $pid "* ]] || echo "$pid" ;;
    esac
  done
}

tail_logs() {
  local dir=$1 f
  for f in "$dir"/logs/minicluster.out "$dir"/logs/*.log; do
    [ -s "$f" ] || continue
    echo "----- last lines of $f" >&2
    tail -n 40 "$f" >&2
  done
}

# Builds the harness and writes its runtime classpath, once per Hadoop
# version, into a directory of that version's own; a lock keeps two clusters
# starting at once from building together.
build_harness() {
  local stamp="$build_dir/hadoop.version" log=$1
  mkdir -p "$build_dir"
  exec 9>"$harness/target/.build.lock"
  flock 9
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$HADOOP_VERSION" ] &&
    [ -f "$build_dir/classpath.txt" ] &&
    [ -z "$(find "$harness/src" "$harness/pom.xml" -newer "$stamp" -print -quit)" ]; then
    exec 9>&-
    return 0
  fi
  echo "minicluster: building the harness for Hadoop $HADOOP_VERSION (first use downloads it; log: $log)" >&2
  if ! mvn -B -q -f "$harness/pom.xml" -Dhadoop.version="$HADOOP_VERSION" -Dharness.dir="$build_dir" package >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    exec 9>&-
    die "building the harness for Hadoop $HADOOP_VERSION failed (see $log)"
  fi
  echo "$HADOOP_VERSION" >"$stamp"
  exec 9>&-
}

port_in_use() {
  (exec 3<>"/dev/tcp/$MINICLUSTER_HOST/$1") 2>/dev/null
}

start() {
  local dir pid port name waited=0
  dir=$(abs_dir "${1:-}")
  if pid=$(cluster_pid "$dir"); then
    die "a mini cluster is already running in $dir (pid $pid); stop it first: $0 stop $dir"
  fi
  local names="RM_PORT RM_SCHEDULER_PORT RM_TRACKER_PORT RM_ADMIN_PORT RM_WEB_PORT NN_PORT NN_HTTP_PORT"
  [ "$RMS" = 2 ] && names+=" RM1_PORT RM1_SCHEDULER_PORT RM1_TRACKER_PORT RM1_ADMIN_PORT RM1_WEB_PORT"
  for name in $names; do
    port=$(eval echo "\$MINICLUSTER_$name")
    if port_in_use "$port"; then
      die "port $port (MINICLUSTER_$name) on $MINICLUSTER_HOST is already in use; is another cluster running? Choose another with MINICLUSTER_$name"
    fi
  done
  command -v java >/dev/null || die "java not found: the mini cluster needs Java 17"
  command -v mvn >/dev/null || die "mvn not found: the mini cluster needs Maven"

  rm -rf "$dir/conf" "$dir/work" "$dir/logs" "$dir/ready" "$dir/pid" "$dir/cluster.env" "$dir/kdc" "$dir/krb5.conf" "$dir/site" "$dir/control"
  # DIR/site is on the JVM's classpath, filled by the harness: it must exist
  # before the JVM looks in it, or the class loader never looks again.
  mkdir -p "$dir/logs" "$dir/work" "$dir/tmp" "$dir/site"
  build_harness "$dir/logs/build.log"

  (
    cd "$dir/work"
    exec setsid java -Xmx"$MINICLUSTER_HEAP" "${java_opens[@]}" \
      -Djava.net.preferIPv4Stack=true \
      -Djava.io.tmpdir="$dir/tmp" \
      -Dspindle.logs.dir="$dir/logs" \
      -Dhadoop.log.dir="$dir/logs" \
      -Dtest.build.data="$dir/work" \
      -cp "$dir/site:$build_dir/spindle-minicluster-1.0.jar:$(cat "$build_dir/classpath.txt")" \
      "$main_class" --dir="$dir" \
      --nodemanagers="$NODEMANAGERS" --gpus-per-node="$GPUS_PER_NODE" --fpgas-per-node="$FPGAS_PER_NODE" \
      --nm-memory-mb="$MINICLUSTER_NM_MEMORY_MB" --nm-vcores="$MINICLUSTER_NM_VCORES" \
      --host="$MINICLUSTER_HOST" --rpc-protection="$MINICLUSTER_RPC_PROTECTION" \
      --rm-port="$MINICLUSTER_RM_PORT" --rm-scheduler-port="$MINICLUSTER_RM_SCHEDULER_PORT" \
      --rm-tracker-port="$MINICLUSTER_RM_TRACKER_PORT" --rm-admin-port="$MINICLUSTER_RM_ADMIN_PORT" \
      --rm-web-port="$MINICLUSTER_RM_WEB_PORT" --rms="$RMS" \
      --rm1-port="$MINICLUSTER_RM1_PORT" --rm1-scheduler-port="$MINICLUSTER_RM1_SCHEDULER_PORT" \
      --rm1-tracker-port="$MINICLUSTER_RM1_TRACKER_PORT" --rm1-admin-port="$MINICLUSTER_RM1_ADMIN_PORT" \
      --rm1-web-port="$MINICLUSTER_RM1_WEB_PORT" \
      --nn-port="$MINICLUSTER_NN_PORT" --nn-http-port="$MINICLUSTER_NN_HTTP_PORT" \
      --owner-pid="$MINICLUSTER_OWNER_PID" --kerberos="$([ "$KERBEROS" = 1 ] && echo true || echo false)" \
      --token-max-lifetime-s="$TOKEN_MAX_LIFETIME_S" --token-renew-interval-s="$TOKEN_RENEW_INTERVAL_S" \
      --preemption="$([ "$PREEMPTION" = 1 ] && echo true || echo false)" \
      --log-aggregation="$([ "$LOG_AGGREGATION" = 1 ] && echo true || echo false)" \
      --placement="$PLACEMENT" --node-attributes="$NODE_ATTRIBUTES" --node-labels="$NODE_LABELS"
  ) </dev/null >"$dir/logs/minicluster.out" 2>&1 &
  pid=$!
  echo "$pid" >"$dir/pid"

  while [ ! -f "$dir/ready" ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail_logs "$dir"
      rm -f "$dir/pid"
      die "the mini cluster exited while starting (logs: $dir/logs)"
    fi
    if [ "$waited" -ge "$MINICLUSTER_START_TIMEOUT" ]; then
      tail_logs "$dir"
      stop "$dir" >/dev/null
      die "the mini cluster was not ready within ${MINICLUSTER_START_TIMEOUT}s (logs: $dir/logs)"
    fi
    sleep 1
    waited=$((waited + 1))
  done
  local secured=""
  [ "$KERBEROS" = 1 ] && secured=", Kerberos"
  local rms=""
  [ "$RMS" = 2 ] && rms=", an HA pair of ResourceManagers"
  echo "minicluster: up in ${waited}s$rms: $NODEMANAGERS NodeManagers x $GPUS_PER_NODE GPUs and $FPGAS_PER_NODE FPGAs, Hadoop $HADOOP_VERSION, rpc protection $MINICLUSTER_RPC_PROTECTION$secured, logs in $dir/logs" >&2
  # What a client of a Kerberized cluster needs to log in, as written in
  # cluster.env.
  grep -E '^(KRB5_CONFIG|SPINDLE_TEST_PRINCIPAL|SPINDLE_TEST_KEYTAB)=' "$dir/cluster.env" || true
  echo "HADOOP_CONF_DIR=$dir/conf"
}

status() {
  local dir pid
  dir=$(abs_dir "${1:-}")
  if pid=$(cluster_pid "$dir") && [ -f "$dir/ready" ]; then
    echo "up (pid $pid) HADOOP_CONF_DIR=$dir/conf"
    return 0
  fi
  echo "down"
  return 1
}

stop() {
  local dir pid waited=0 left
  dir=$(abs_dir "${1:-}")
  if pid=$(cluster_pid "$dir"); then
    # SIGTERM runs the JVM's shutdown hook: NodeManagers kill their
    # containers, then YARN and HDFS stop in order.
    kill -TERM "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 60 ]; do
      sleep 1
      waited=$((waited + 1))
    done
    kill -KILL -- "-$pid" 2>/dev/null || true
  fi
  left=$(processes_under "$dir")
  if [ -n "$left" ]; then
    # shellcheck disable=SC2086
    kill -KILL $left 2>/dev/null || true
  fi
  rm -f "$dir/pid" "$dir/ready"
  echo "stopped"
}

# Hands a fault control to the running harness (Controls.java) and waits
# for its answer: a request file DIR/control/ID.cmd, renamed into place; the
# answer DIR/control/ID.out, "ok" or "error" and then what happened. The
# harness answers only once the action shows in the RM.
control() {
  local dir pid id req out waited=0
  dir=$(abs_dir "$1")
  shift
  pid=$(cluster_pid "$dir") && [ -f "$dir/ready" ] || die "no mini cluster is running in $dir: start one first"
  id="$(date +%s%N)-$$"
  req="$dir/control/$id.cmd"
  out="$dir/control/$id.out"
  echo "$*" >"$req.tmp"
  mv "$req.tmp" "$req"
  while [ ! -f "$out" ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$req"
      die "the mini cluster exited before answering '$*' (logs: $dir/logs)"
    fi
    if [ "$waited" -ge $((MINICLUSTER_CONTROL_TIMEOUT * 10)) ]; then
      rm -f "$req"
      die "no answer to '$*' within ${MINICLUSTER_CONTROL_TIMEOUT}s (logs: $dir/logs/minicluster.log)"
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  if [ "$(head -n 1 "$out")" = ok ]; then
    tail -n +2 "$out"
    rm -f "$out"
    return 0
  fi
  tail -n +2 "$out" | sed 's/^/minicluster: /' >&2
  rm -f "$out"
  exit 1
}

# Runs Hadoop's LogsCLI, what `yarn logs` runs, from the Hadoop client jars
# the harness was built with, reading the cluster's client configuration
# (DIR/conf first on the classpath, as the yarn script puts
# HADOOP_CONF_DIR). Its own logging is kept to warnings on stderr, so
# stdout is the logs alone.
yarn_logs() {
  local dir version classpath
  dir=$(abs_dir "$1")
  shift
  cluster_pid "$dir" >/dev/null && [ -f "$dir/ready" ] || die "no mini cluster is running in $dir: start one first"
  version=$(sed -n 's/^HADOOP_VERSION=//p' "$dir/cluster.env")
  classpath="$harness/target/hadoop-$version/classpath.txt"
  [ -f "$classpath" ] || die "no harness built for Hadoop $version ($classpath): the cluster in $dir was started from another checkout"
  exec java "${java_opens[@]}" -Djava.net.preferIPv4Stack=true \
    -Dlog4j.configuration="file:$harness/src/main/resources/client-log4j.properties" \
    -cp "$dir/conf:$(cat "$classpath")" org.apache.hadoop.yarn.client.cli.LogsCLI "$@"
}

# DIR is required for the controls (no default): a control aimed at the
# wrong cluster would disrupt someone else's tests.
control_usage() {
  echo "usage: $0 $1 DIR${2:+ $2}" >&2
  exit 2
}

case "${1:-}" in
  restart-rm | failover-rm)
    [ $# -eq 2 ] || control_usage "$1"
    control "$2" "$1" ;;
  stop-nm | start-nm)
    [ $# -eq 3 ] || control_usage "$1" I
    control "$2" "$1" "$3" ;;
  decommission)
    [ $# -eq 3 ] || [ $# -eq 4 ] || control_usage "$1" "I [TIMEOUT_S]"
    control "$2" "$1" "$3" ${4:+"$4"} ;;
  yarn-logs)
    [ $# -ge 2 ] || control_usage "$1" "-applicationId APP_ID [LogsCLI options]"
    yarn_logs "$2" "${@:3}" ;;
  start) start "${2:-}" ;;
  status) status "${2:-}" ;;
  stop) stop "${2:-}" ;;
  *) usage ;;
esac
