package io.spindle.minicluster;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The server-side configuration of the mini cluster, and the small client
 * configuration it hands to Spindle as HADOOP_CONF_DIR. Both are built from
 * {@link Settings} so the ports a client is told are the ports servers bind.
 */
final class ClusterConfig {
  static final String GPU = "yarn.io/gpu";
  static final String FPGA = "yarn.io/fpga";
  /** The countable resource types besides memory and vcores. */
  static final String RESOURCE_TYPES = GPU + "," + FPGA;

  private ClusterConfig() {}

  static YarnConfiguration yarn(Settings s) {
    YarnConfiguration conf = new YarnConfiguration();
    // The RM's addresses come from this configuration rather than from
    // ephemeral ports, so clients can be told them before anything starts.
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, true);
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_USE_RPC, true);
    setRMAddresses(conf, s);
    if (s.rms == 2) {
      // MiniYARNCluster turns HA on and names the RMs rm0 and rm1; with
      // fixed ports each id's addresses are ours to give. Failover is
      // manual, through the RMs' admin services (failover-rm): leader
      // election would need ZooKeeper.
      conf.setBoolean(YarnConfiguration.RM_HA_ENABLED, true);
      conf.set(YarnConfiguration.RM_HA_IDS, "rm0,rm1");
      conf.setBoolean(YarnConfiguration.AUTO_FAILOVER_ENABLED, false);
      // Clients in this JVM (the NodeManagers) move to the other RM fast.
      conf.setLong("yarn.client.failover-sleep-base-ms", 100);
      conf.setLong("yarn.client.failover-sleep-max-ms", 1000);
    }

    // Scheduling as on a GPU cluster: CapacityScheduler, DominantResourceCalculator
    // (the default one counts memory only and would ignore GPUs), one queue.
    conf.set(YarnConfiguration.RM_SCHEDULER,
        "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler");
    conf.set("yarn.scheduler.capacity.resource-calculator",
        "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator");
    if (s.preemption) {
      preemption(conf);
    } else {
      conf.set("yarn.scheduler.capacity.root.queues", "default");
      conf.set("yarn.scheduler.capacity.root.default.capacity", "100");
      conf.set("yarn.scheduler.capacity.root.default.maximum-capacity", "100");
    }
    // A test may run several small applications at once; the default 10%
    // would admit one AM at a time.
    conf.set("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");

    // GPUs as a countable resource type. There is no GPU plugin (no
    // nvidia-smi here), so the NodeManagers advertise a count and assign no
    // device indices: exactly the mini-cluster path of docs/architecture.md, "GPU addresses".
    conf.set(YarnConfiguration.RESOURCE_TYPES, RESOURCE_TYPES);
    conf.setInt(YarnConfiguration.NM_RESOURCES_PREFIX + GPU, s.gpusPerNode);
    conf.setLong("yarn.resource-types." + GPU + ".maximum-allocation", s.gpusPerNode);
    // FPGAs the same way, on every cluster: an ask that names none gets
    // none, so only the tests that ask for them see them (docs/yarn.md,
    // "Accelerators").
    conf.setInt(YarnConfiguration.NM_RESOURCES_PREFIX + FPGA, s.fpgasPerNode);
    conf.setLong("yarn.resource-types." + FPGA + ".maximum-allocation", s.fpgasPerNode);

    conf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, s.nmMemoryMb);
    conf.setInt(YarnConfiguration.NM_VCORES, s.nmVcores);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 64);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, s.nmMemoryMb);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES, s.nmVcores);
    // Every NodeManager is on "localhost": with the port in the node name the
    // scheduler can still tell them apart, so node-specific requests work.
    conf.setBoolean(YarnConfiguration.RM_SCHEDULER_INCLUDE_PORT_IN_NODE_NAME, true);

    // Test machines run with nearly full disks and no memory to spare for
    // virtual-memory accounting; neither should fail a NodeManager.
    conf.setFloat(
        YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 100.0f);
    conf.setLong(YarnConfiguration.NM_MIN_PER_DISK_FREE_SPACE_MB, 0);
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);

    // Keep finished containers' directories for a while so a failing test
    // can be diagnosed from DIR.
    conf.setInt(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, 600);
    conf.setBoolean(YarnConfiguration.TIMELINE_SERVICE_ENABLED, false);
    logAggregation(conf, s);
    recovery(conf, s);
    NodePlacement.configure(conf, s);

    // Token-authenticated connections (AM to RM, AM to NM) then negotiate
    // this SASL quality of protection: privacy wraps every packet.
    conf.set("hadoop.rpc.protection", s.rpcProtection);
    return conf;
  }

  /** Where ended applications' container logs go on HDFS. */
  static final String REMOTE_APP_LOG_DIR = "/tmp/logs";

  /**
   * Log aggregation, as on a production cluster: once an application has
   * ended, each NodeManager uploads its containers' log directories to
   * REMOTE_APP_LOG_DIR on HDFS, where `yarn logs -applicationId` reads
   * them. The clients' yarn-site.xml says the same, since `yarn logs`
   * looks where its own configuration tells it. The local copies stay
   * for DEBUG_NM_DELETE_DELAY_SEC after the upload, for tests reading
   * container logs from DIR.
   */
  private static void logAggregation(Configuration conf, Settings s) {
    conf.setBoolean(YarnConfiguration.LOG_AGGREGATION_ENABLED, s.logAggregation);
    if (s.logAggregation) {
      conf.set(YarnConfiguration.NM_REMOTE_APP_LOG_DIR, REMOTE_APP_LOG_DIR);
    }
  }

  /**
   * RM recovery, work-preserving, so restart-rm keeps applications and
   * their containers. MiniYARNCluster's restarted RM is a new object: the
   * state must be on disk (DIR/work/rm-state), not in memory.
   */
  private static void recovery(Configuration conf, Settings s) {
    conf.setBoolean(YarnConfiguration.RECOVERY_ENABLED, true);
    conf.setBoolean(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_ENABLED, true);
    conf.set(YarnConfiguration.RM_STORE,
        "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore");
    conf.set(YarnConfiguration.FS_RM_STATE_STORE_URI,
        new java.io.File(s.workDir(), "rm-state").toURI().toString());
    // After a restart the scheduler waits this long for NodeManagers to
    // report their containers before it allocates (10 s by default).
    conf.setLong(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_SCHEDULING_WAIT_MS, 2000);
    // NodeManagers (and other clients in this JVM) retry a down RM every
    // 30 s by default: a restart would leave nodes away that long.
    conf.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, 500);
    conf.setLong(YarnConfiguration.NM_RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, 500);
    // A decommissioning node's timeout and readiness are checked this often
    // (20 s by default).
    conf.setInt("yarn.resourcemanager.decommissioning-nodes-watcher.poll-interval-secs", 1);
  }

  /**
   * PREEMPTION=1: queues default and high, 50% each and up to 100%, and
   * the preemption monitor on with short intervals, so an application in
   * high takes back what one in default borrowed within seconds.
   */
  private static void preemption(Configuration conf) {
    conf.set("yarn.scheduler.capacity.root.queues", "default,high");
    for (String q : new String[] {"default", "high"}) {
      String prefix = "yarn.scheduler.capacity.root." + q + ".";
      conf.set(prefix + "capacity", "50");
      conf.set(prefix + "maximum-capacity", "100");
      // One user may use the whole cluster, beyond its queue's share: what
      // makes the other queue's claim a preemption.
      conf.set(prefix + "user-limit-factor", "2");
    }
    conf.setBoolean(YarnConfiguration.RM_SCHEDULER_ENABLE_MONITORS, true);
    conf.set(YarnConfiguration.RM_SCHEDULER_MONITOR_POLICIES,
        "org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.ProportionalCapacityPreemptionPolicy");
    String p = "yarn.resourcemanager.monitor.capacity.preemption.";
    conf.setLong(p + "monitoring_interval", 1000);
    conf.setLong(p + "max_wait_before_kill", 5000);
    conf.setFloat(p + "total_preemption_per_round", 1.0f);
    conf.setFloat(p + "natural_termination_factor", 1.0f);
    conf.setFloat(p + "max_ignored_over_capacity", 0.0f);
  }

  static Configuration hdfs(Settings s) {
    Configuration conf = new Configuration();
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 1);
    // The NameNode would enter safe mode on a nearly full disk.
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_DU_RESERVED_KEY, 0);
    conf.set(DFSConfigKeys.DFS_NAMENODE_RPC_BIND_HOST_KEY, s.host);
    conf.set("hadoop.rpc.protection", s.rpcProtection);
    return conf;
  }

  /** core-site.xml for clients: where HDFS is and how to authenticate. */
  static Configuration clientCore(Settings s, String defaultFS) {
    Configuration conf = new Configuration(false);
    conf.set("fs.defaultFS", defaultFS);
    conf.set("hadoop.security.authentication", s.kerberos ? "kerberos" : "simple");
    conf.set("hadoop.rpc.protection", s.rpcProtection);
    if (s.kerberos) {
      conf.set("hadoop.security.auth_to_local", Kerberos.authToLocal());
    }
    return conf;
  }

  /**
   * The servers' principal as clients are told it, with _HOST for the
   * host they dial, as a real cluster's configuration has it.
   */
  private static String clientPrincipal(Kerberos krb) {
    return "hadoop/_HOST@" + krb.realm();
  }

  /**
   * yarn-site.xml for clients: the RM's addresses, the resource types,
   * how the scheduler names nodes (host:port here), which an AM needs to
   * exclude one, and where aggregated logs are, which `yarn logs` needs:
   * a cluster shares its yarn-site.xml with its clients.
   */
  static Configuration clientYarn(Settings s, Kerberos krb) {
    Configuration conf = new Configuration(false);
    if (krb != null) {
      conf.set(YarnConfiguration.RM_PRINCIPAL, clientPrincipal(krb));
    }
    conf.set(YarnConfiguration.RM_HOSTNAME, s.host);
    setRMAddresses(conf, s);
    if (s.rms == 2) {
      // As an HA cluster's clients are told: the ids and each one's
      // addresses; a client tries them in turn until one is active.
      conf.setBoolean(YarnConfiguration.RM_HA_ENABLED, true);
      conf.set(YarnConfiguration.RM_HA_IDS, "rm0,rm1");
    }
    conf.set(YarnConfiguration.RESOURCE_TYPES, RESOURCE_TYPES);
    conf.setBoolean(YarnConfiguration.RM_SCHEDULER_INCLUDE_PORT_IN_NODE_NAME, true);
    logAggregation(conf, s);
    return conf;
  }

  /** hdfs-site.xml for clients. */
  static Configuration clientHdfs(Settings s, String nnHttpAddress, Kerberos krb) {
    Configuration conf = new Configuration(false);
    if (krb != null) {
      conf.set(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, clientPrincipal(krb));
    }
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 1);
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, nnHttpAddress);
    return conf;
  }

  /**
   * The RM's addresses; with an HA pair, each id's (key.rm0, key.rm1), and
   * the unsuffixed keys name rm0, for tools that read one address.
   */
  private static void setRMAddresses(Configuration conf, Settings s) {
    setRMAddresses(conf, "", s.host, s.rmPort, s.rmSchedulerPort, s.rmTrackerPort, s.rmAdminPort, s.rmWebPort);
    if (s.rms == 2) {
      setRMAddresses(conf, ".rm0", s.host, s.rmPort, s.rmSchedulerPort, s.rmTrackerPort, s.rmAdminPort, s.rmWebPort);
      setRMAddresses(conf, ".rm1", s.host, s.rm1Port, s.rm1SchedulerPort, s.rm1TrackerPort, s.rm1AdminPort,
          s.rm1WebPort);
    }
  }

  private static void setRMAddresses(Configuration conf, String suffix, String host, int rm, int scheduler,
      int tracker, int admin, int web) {
    conf.set(YarnConfiguration.RM_ADDRESS + suffix, host + ":" + rm);
    conf.set(YarnConfiguration.RM_SCHEDULER_ADDRESS + suffix, host + ":" + scheduler);
    conf.set(YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS + suffix, host + ":" + tracker);
    conf.set(YarnConfiguration.RM_ADMIN_ADDRESS + suffix, host + ":" + admin);
    conf.set(YarnConfiguration.RM_WEBAPP_ADDRESS + suffix, host + ":" + web);
  }
}
