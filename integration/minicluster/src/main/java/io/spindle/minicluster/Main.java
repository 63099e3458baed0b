package io.spindle.minicluster;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.util.VersionInfo;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * Starts a MiniDFSCluster and a MiniYARNCluster in this JVM, writes the
 * client configuration to DIR/conf and then DIR/ready, and runs until it is
 * sent SIGTERM or SIGINT (or its owner process exits). minicluster.sh waits for
 * DIR/ready, so nothing reads a configuration before every NodeManager has
 * registered with its GPUs.
 */
public final class Main {
  private static final Logger LOG = LoggerFactory.getLogger(Main.class);
  private static final long NODE_WAIT_MS = 120_000;

  private MiniDFSCluster dfs;
  private MiniYARNCluster yarn;
  private Kerberos kerberos; // null on a cluster without Kerberos
  private Controls controls;

  public static void main(String[] args) {
    Settings s;
    try {
      s = Settings.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("minicluster: " + e.getMessage());
      System.exit(2);
      return;
    }
    // Stop on SIGTERM/SIGINT in this thread rather than in a JVM shutdown
    // hook: Hadoop's daemons unregister hooks of their own while stopping,
    // which Hadoop refuses once the JVM's shutdown has begun.
    CountDownLatch stopRequested = new CountDownLatch(1);
    Signal.handle(new Signal("TERM"), sig -> stopRequested.countDown());
    Signal.handle(new Signal("INT"), sig -> stopRequested.countDown());
    Main m = new Main();
    int status = 0;
    try {
      m.start(s);
      watchOwner(s.ownerPid, stopRequested);
      stopRequested.await();
      LOG.info("stop requested");
    } catch (Throwable t) {
      LOG.error("mini cluster failed to start", t);
      System.err.println("minicluster: failed to start: " + t);
      status = 1;
    }
    m.stop(s);
    System.exit(status);
  }

  private void start(Settings s) throws Exception {
    File ready = new File(s.dir, "ready");
    Files.deleteIfExists(ready.toPath());

    Configuration hdfsConf = ClusterConfig.hdfs(s);
    if (s.kerberos) {
      kerberos = Kerberos.start(s);
      kerberos.secure(hdfsConf, s);
      kerberos.login(hdfsConf);
      LOG.info("KDC up for {}: {} and {}", kerberos.realm(), kerberos.servicePrincipal(), kerberos.userPrincipal());
    }
    writeClasspathSite(s, hdfsConf);
    dfs = new MiniDFSCluster.Builder(hdfsConf, new File(s.workDir(), "dfs"))
        .numDataNodes(1)
        .nameNodePort(s.nnPort)
        .nameNodeHttpPort(s.nnHttpPort)
        .format(true)
        .build();
    dfs.waitActive();
    String defaultFS = "hdfs://" + s.host + ":" + dfs.getNameNodePort();
    prepareHdfs(dfs.getFileSystem(), s.kerberos ? Kerberos.USER : null);
    LOG.info("HDFS is up at {}", defaultFS);

    var yarnConf = ClusterConfig.yarn(s);
    yarnConf.set("fs.defaultFS", defaultFS);
    if (kerberos != null) {
      kerberos.secure(yarnConf, s);
      kerberos.secureYarn(yarnConf);
    }
    if (s.rms == 2) {
      writeRefreshedSite(s, yarnConf);
    }
    StandbyPorts standby = StandbyPorts.of(s);
    if (s.rms == 2) {
      standby.hold(1);
    }
    yarn = new MiniYARNCluster("spindle", s.rms, s.nodeManagers, 1, 1);
    yarn.init(yarnConf);
    yarn.start();
    if (s.rms == 2) {
      // Both RMs start standby (failover is manual); rm0 leads. The
      // NodeManagers, started in threads of their own, register once it is.
      Controls.transition(yarn.getResourceManager(0), true);
    }
    WebAppRouting.restore(yarn, s.rms, s.nodeManagers);
    waitForNodes(s);
    NodePlacement.apply(s, yarn);
    controls = new Controls(s, yarn, standby);
    controls.start();
    LOG.info("YARN is up with {} NodeManagers of {} GPUs and {} FPGAs", s.nodeManagers, s.gpusPerNode,
        s.fpgasPerNode);

    String nnHttp = s.host + ":" + dfs.getNameNode().getHttpAddress().getPort();
    writeClientConf(s, defaultFS, nnHttp, kerberos);
    writeAtomically(new File(s.dir, "cluster.env"), summary(s, defaultFS, nnHttp) + nodeIds(s) + kerberosSummary());
    writeAtomically(ready, "ready\n");
    System.out.println("minicluster: ready");
  }

  /**
   * The directories every Hadoop cluster has and YARN applications expect,
   * and the test user's home when there is one (a Kerberized cluster's).
   */
  private static void prepareHdfs(FileSystem fs, String testUser) throws IOException {
    Path tmp = new Path("/tmp");
    fs.mkdirs(tmp);
    fs.setPermission(tmp, new FsPermission((short) 01777));
    Path user = new Path("/user");
    fs.mkdirs(user);
    fs.setPermission(user, new FsPermission((short) 0777));
    if (testUser != null) {
      Path home = new Path(user, testUser);
      fs.mkdirs(home);
      fs.setOwner(home, testUser, null);
    }
  }

  /**
   * Waits until every NodeManager has registered with the ResourceManager
   * and advertises the configured GPUs: a cluster whose nodes lack GPUs
   * would make every later GPU test fail for a reason far from its cause.
   */
  private void waitForNodes(Settings s) throws Exception {
    if (!yarn.waitForNodeManagersToConnect(NODE_WAIT_MS)) {
      throw new IllegalStateException(
          "not all " + s.nodeManagers + " NodeManagers registered within " + NODE_WAIT_MS + " ms");
    }
    var nodes = yarn.getResourceManager().getRMContext().getRMNodes().values();
    for (RMNode node : nodes) {
      long gpus = node.getTotalCapability().getResourceValue(ClusterConfig.GPU);
      if (gpus != s.gpusPerNode) {
        throw new IllegalStateException("node " + node.getNodeID() + " advertises "
            + gpus + " " + ClusterConfig.GPU + ", want " + s.gpusPerNode);
      }
      long fpgas = node.getTotalCapability().getResourceValue(ClusterConfig.FPGA);
      if (fpgas != s.fpgasPerNode) {
        throw new IllegalStateException("node " + node.getNodeID() + " advertises "
            + fpgas + " " + ClusterConfig.FPGA + ", want " + s.fpgasPerNode);
      }
    }
  }

  private static void writeClientConf(Settings s, String defaultFS, String nnHttp, Kerberos krb)
      throws IOException {
    File conf = s.confDir();
    Files.createDirectories(conf.toPath());
    writeXml(new File(conf, "core-site.xml"), ClusterConfig.clientCore(s, defaultFS));
    writeXml(new File(conf, "yarn-site.xml"), ClusterConfig.clientYarn(s, krb));
    writeXml(new File(conf, "hdfs-site.xml"), ClusterConfig.clientHdfs(s, nnHttp, krb));
  }

  /**
   * DIR/site/core-site.xml, on this JVM's classpath (minicluster.sh puts it
   * there): the security settings for the Configurations Hadoop's daemons
   * make from scratch rather than from ours. A NodeManager's localizer
   * does, and without the cluster's hadoop.rpc.protection it could not
   * agree a SASL layer with the NodeManager it reports to.
   */
  private static void writeClasspathSite(Settings s, Configuration servers) throws IOException {
    Configuration site = new Configuration(false);
    for (String key : new String[] {"hadoop.security.authentication", "hadoop.security.authorization",
        "hadoop.security.auth_to_local", "hadoop.rpc.protection"}) {
      String v = servers.get(key);
      if (v != null) {
        site.set(key, v);
      }
    }
    File dir = new File(s.dir, "site");
    Files.createDirectories(dir.toPath());
    writeXml(new File(dir, "core-site.xml"), site);
  }

  /**
   * An RM becoming active re-reads its configuration files from the
   * classpath (AdminService.refreshAll: capacity-scheduler.xml for the
   * queues, yarn-site.xml for nodes and ACLs), and fails if they undo what
   * it runs with: Hadoop's defaults would shrink the queues' maximum
   * allocation. So with an HA pair the settings this harness made land in
   * DIR/site, on the classpath, as those two files.
   */
  private static void writeRefreshedSite(Settings s, Configuration yarnConf) throws IOException {
    Configuration site = new Configuration(false);
    for (var e : yarnConf) {
      String[] sources = yarnConf.getPropertySources(e.getKey());
      if (sources != null && java.util.Arrays.asList(sources).contains("programmatically")) {
        site.set(e.getKey(), e.getValue());
      }
    }
    File dir = new File(s.dir, "site");
    writeXml(new File(dir, "capacity-scheduler.xml"), site);
    writeXml(new File(dir, "yarn-site.xml"), site);
  }

  /**
   * NODE_IDS: each NodeManager's node id (host:port), in index order, as
   * the knobs that address NodeManagers by index (NODE_ATTRIBUTES,
   * NODE_LABELS, stop-nm) count them.
   */
  private String nodeIds(Settings s) {
    StringBuilder b = new StringBuilder("NODE_IDS=");
    for (int i = 0; i < s.nodeManagers; i++) {
      b.append(i == 0 ? "" : ",").append(yarn.getNodeManager(i).getNMContext().getNodeId());
    }
    return b.append("\n").toString();
  }

  /**
   * A Kerberized cluster's part of cluster.env: what a client needs to
   * log in (minicluster.sh prints the same lines).
   */
  private String kerberosSummary() {
    if (kerberos == null) {
      return "";
    }
    return "KERBEROS=1\n"
        + "REALM=" + kerberos.realm() + "\n"
        + "KRB5_CONFIG=" + kerberos.clientKrb5Conf.getAbsolutePath() + "\n"
        + "SPINDLE_TEST_PRINCIPAL=" + kerberos.userPrincipal() + "\n"
        + "SPINDLE_TEST_KEYTAB=" + kerberos.userKeytab.getAbsolutePath() + "\n";
  }

  /**
   * DIR/cluster.env: what a test needs to reach this cluster, as KEY=VALUE
   * lines, so tools need not parse Hadoop's XML to find an address.
   */
  private static String summary(Settings s, String defaultFS, String nnHttp) {
    return "HADOOP_CONF_DIR=" + s.confDir() + "\n"
        + "HADOOP_VERSION=" + VersionInfo.getVersion() + "\n"
        + "NODEMANAGERS=" + s.nodeManagers + "\n"
        + "GPUS_PER_NODE=" + s.gpusPerNode + "\n"
        + "FPGAS_PER_NODE=" + s.fpgasPerNode + "\n"
        + "RPC_PROTECTION=" + s.rpcProtection + "\n"
        + "RM_ADDRESS=" + s.host + ":" + s.rmPort + "\n"
        + "RM_SCHEDULER_ADDRESS=" + s.host + ":" + s.rmSchedulerPort + "\n"
        + "RM_WEBAPP_ADDRESS=" + s.host + ":" + s.rmWebPort + "\n"
        + "RMS=" + s.rms + "\n"
        + "LOG_AGGREGATION=" + (s.logAggregation ? 1 : 0) + "\n"
        + "PLACEMENT_HANDLER=" + s.placementHandler + "\n"
        + "NODE_ATTRIBUTES=" + s.nodeAttributes + "\n"
        + "NODE_LABELS=" + s.nodeLabels + "\n"
        + (s.rms == 2
            ? "RM1_ADDRESS=" + s.host + ":" + s.rm1Port + "\n"
                + "RM1_SCHEDULER_ADDRESS=" + s.host + ":" + s.rm1SchedulerPort + "\n"
                + "RM1_WEBAPP_ADDRESS=" + s.host + ":" + s.rm1WebPort + "\n"
            : "")
        + "FS_DEFAULT_FS=" + defaultFS + "\n"
        + "NAMENODE_ADDRESS=" + s.host + ":" + s.nnPort + "\n"
        + "NAMENODE_HTTP_ADDRESS=" + nnHttp + "\n";
  }

  private static void writeXml(File f, Configuration c) throws IOException {
    File tmp = new File(f.getPath() + ".tmp");
    try (OutputStream out = new FileOutputStream(tmp)) {
      c.writeXml(out);
    }
    Files.move(tmp.toPath(), f.toPath(), StandardCopyOption.ATOMIC_MOVE);
  }

  private static void writeAtomically(File f, String text) throws IOException {
    File tmp = new File(f.getPath() + ".tmp");
    Files.write(tmp.toPath(), text.getBytes(StandardCharsets.UTF_8));
    Files.move(tmp.toPath(), f.toPath(), StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * A test process that dies without stopping its cluster (killed, timed
   * out) must not leave a JVM behind: follow it and stop with it.
   */
  private static void watchOwner(long pid, CountDownLatch stopRequested) {
    if (pid <= 0) {
      return;
    }
    Thread t = new Thread(() -> {
      while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
        try {
          Thread.sleep(1000);
        } catch (InterruptedException e) {
          return;
        }
      }
      LOG.info("owner process {} is gone", pid);
      stopRequested.countDown();
    }, "minicluster-owner-watch");
    t.setDaemon(true);
    t.start();
  }

  private void stop(Settings s) {
    try {
      Files.deleteIfExists(new File(s.dir, "ready").toPath());
    } catch (IOException e) {
      LOG.warn("removing the ready marker", e);
    }
    if (controls != null) {
      controls.stop();
      controls = null;
    }
    if (yarn != null) {
      yarn.stop();
      yarn = null;
    }
    if (dfs != null) {
      dfs.shutdown();
      dfs = null;
    }
    if (kerberos != null) {
      kerberos.stop();
      kerberos = null;
    }
    LOG.info("mini cluster stopped");
  }
}
