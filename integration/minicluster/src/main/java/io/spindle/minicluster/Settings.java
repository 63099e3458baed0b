package io.spindle.minicluster;

import java.io.File;
import java.util.HashMap;
import java.util.Map;

/**
 * What the cluster should look like, from {@code --key=value} arguments that
 * minicluster.sh builds from its environment knobs. Every key has a default so
 * the harness can also be started by hand; an unknown key is an error, never
 * silently ignored.
 */
final class Settings {
  final File dir;
  final int nodeManagers;
  final int gpusPerNode;
  /** yarn.io/fpga per NodeManager: a second countable resource type. */
  final int fpgasPerNode;
  final int nmMemoryMb;
  final int nmVcores;
  final String host;
  final int rmPort;
  final int rmSchedulerPort;
  final int rmTrackerPort;
  final int rmAdminPort;
  final int rmWebPort;
  /** ResourceManagers: 1, or 2 for an HA pair (rm0 and rm1). */
  final int rms;
  /** The second RM's (rm1's) ports, with rms == 2. */
  final int rm1Port;
  final int rm1SchedulerPort;
  final int rm1TrackerPort;
  final int rm1AdminPort;
  final int rm1WebPort;
  final int nnPort;
  final int nnHttpPort;
  /** hadoop.rpc.protection: authentication, integrity or privacy. */
  final String rpcProtection;
  /** A process whose exit shuts the cluster down (0: none). */
  final long ownerPid;
  /** Runs a KDC and secures the cluster with Kerberos. */
  final boolean kerberos;
  /** Delegation tokens' max lifetime and renewal interval (0: Hadoop's). */
  final int tokenMaxLifetimeS;
  final int tokenRenewIntervalS;
  /** Two queues and the capacity scheduler's preemption monitor. */
  final boolean preemption;
  /** NodeManagers upload ended applications' container logs to HDFS. */
  final boolean logAggregation;
  /**
   * yarn.resourcemanager.placement-constraints.handler: "" (Hadoop's
   * default, disabled), placement-processor or scheduler.
   */
  final String placementHandler;
  /** Centralized node attributes, "I:name=value,...": NM I gets name=value. */
  final String nodeAttributes;
  /** Node labels, "I:label,...": label added to the cluster, put on NM I. */
  final String nodeLabels;

  private Settings(Map<String, String> kv) {
    dir = new File(take(kv, "dir", "integration/.cluster")).getAbsoluteFile();
    nodeManagers = positive(kv, "nodemanagers", 2);
    gpusPerNode = atLeast(kv, "gpus-per-node", 4, 0);
    fpgasPerNode = atLeast(kv, "fpgas-per-node", 2, 0);
    nmMemoryMb = positive(kv, "nm-memory-mb", 8192);
    nmVcores = positive(kv, "nm-vcores", 8);
    host = take(kv, "host", "127.0.0.1");
    rmPort = port(kv, "rm-port", 8032);
    rmSchedulerPort = port(kv, "rm-scheduler-port", 8030);
    rmTrackerPort = port(kv, "rm-tracker-port", 8031);
    rmAdminPort = port(kv, "rm-admin-port", 8033);
    rmWebPort = port(kv, "rm-web-port", 8088);
    rms = positive(kv, "rms", 1);
    if (rms > 2) {
      throw new IllegalArgumentException("--rms=" + rms + ": want 1, or 2 for an HA pair");
    }
    rm1Port = port(kv, "rm1-port", 18032);
    rm1SchedulerPort = port(kv, "rm1-scheduler-port", 18030);
    rm1TrackerPort = port(kv, "rm1-tracker-port", 18031);
    rm1AdminPort = port(kv, "rm1-admin-port", 18033);
    rm1WebPort = port(kv, "rm1-web-port", 18088);
    nnPort = port(kv, "nn-port", 8020);
    nnHttpPort = port(kv, "nn-http-port", 9870);
    rpcProtection = take(kv, "rpc-protection", "authentication");
    if (!rpcProtection.matches("authentication|integrity|privacy")) {
      throw new IllegalArgumentException("--rpc-protection=" + rpcProtection
          + ": want authentication, integrity or privacy");
    }
    ownerPid = atLeast(kv, "owner-pid", 0, 0);
    String k = take(kv, "kerberos", "false");
    if (!k.matches("true|false")) {
      throw new IllegalArgumentException("--kerberos=" + k + ": want true or false");
    }
    kerberos = Boolean.parseBoolean(k);
    tokenMaxLifetimeS = atLeast(kv, "token-max-lifetime-s", 0, 0);
    tokenRenewIntervalS = atLeast(kv, "token-renew-interval-s", 0, 0);
    String p = take(kv, "preemption", "false");
    if (!p.matches("true|false")) {
      throw new IllegalArgumentException("--preemption=" + p + ": want true or false");
    }
    preemption = Boolean.parseBoolean(p);
    String la = take(kv, "log-aggregation", "true");
    if (!la.matches("true|false")) {
      throw new IllegalArgumentException("--log-aggregation=" + la + ": want true or false");
    }
    logAggregation = Boolean.parseBoolean(la);
    String pl = take(kv, "placement", "disabled");
    switch (pl) {
      case "disabled":
        placementHandler = "";
        break;
      case "processor":
        placementHandler = "placement-processor";
        break;
      case "scheduler":
        placementHandler = "scheduler";
        break;
      default:
        throw new IllegalArgumentException("--placement=" + pl + ": want disabled, processor or scheduler");
    }
    nodeAttributes = take(kv, "node-attributes", "");
    nodeLabels = take(kv, "node-labels", "");
    if (!kv.isEmpty()) {
      throw new IllegalArgumentException("unknown argument(s): " + kv.keySet());
    }
  }

  static Settings parse(String[] args) {
    Map<String, String> kv = new HashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || eq < 0) {
        throw new IllegalArgumentException("argument " + arg + ": want --key=value");
      }
      kv.put(arg.substring(2, eq), arg.substring(eq + 1));
    }
    return new Settings(kv);
  }

  File confDir() {
    return new File(dir, "conf");
  }

  File logDir() {
    return new File(dir, "logs");
  }

  File workDir() {
    return new File(dir, "work");
  }

  private static String take(Map<String, String> kv, String key, String dflt) {
    String v = kv.remove(key);
    return v == null || v.isEmpty() ? dflt : v;
  }

  private static int atLeast(Map<String, String> kv, String key, int dflt, int min) {
    String v = take(kv, key, Integer.toString(dflt));
    int n;
    try {
      n = Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + key + "=" + v + ": not an integer");
    }
    if (n < min) {
      throw new IllegalArgumentException("--" + key + "=" + v + ": must be at least " + min);
    }
    return n;
  }

  private static int positive(Map<String, String> kv, String key, int dflt) {
    return atLeast(kv, key, dflt, 1);
  }

  private static int port(Map<String, String> kv, String key, int dflt) {
    int p = positive(kv, key, dflt);
    if (p > 65535) {
      throw new IllegalArgumentException("--" + key + "=" + p + ": not a TCP port");
    }
    return p;
  }
}
