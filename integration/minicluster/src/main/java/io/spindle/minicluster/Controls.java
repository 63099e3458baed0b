package io.spindle.minicluster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.service.Service.STATE;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNodeDecommissioningEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fault controls for the running cluster: restart the ResourceManager (or
 * fail over an HA pair), stop and start a NodeManager, decommission one
 * gracefully.
 *
 * <p>The channel is a directory, DIR/control. minicluster.sh writes a
 * request as ID.cmd (one line: the command and its arguments), renamed into
 * place so it is never read half-written; this thread picks requests up in
 * name order, carries each out to the end (the RM back and its nodes
 * re-registered, the node stopped, ...), and answers with ID.out, again
 * renamed into place: a first line "ok" or "error", then what happened.
 * A directory needs no port, survives a JVM that is busy, and a request is
 * never lost: if the JVM dies, the script sees it and stops waiting.
 */
final class Controls {
  private static final Logger LOG = LoggerFactory.getLogger(Controls.class);
  /** How long an action may take to show in the RM before it is an error. */
  private static final long ACTION_WAIT_MS = 90_000;
  private static final long POLL_MS = 200;

  private final File dir;
  private final MiniYARNCluster yarn;
  /**
   * The NodeManager now in each slot: MiniYARNCluster's own at first, one
   * of ours after start-nm (a stopped service cannot start again).
   */
  private final NodeManager[] nms;
  private final int rms;
  private final StandbyPorts standby;
  private final List<NodeManager> started = new ArrayList<>();
  private volatile boolean stopping;

  Controls(Settings s, MiniYARNCluster yarn, StandbyPorts standby) {
    this.dir = new File(s.dir, "control");
    this.yarn = yarn;
    this.rms = s.rms;
    this.standby = standby;
    this.nms = new NodeManager[s.nodeManagers];
    for (int i = 0; i < nms.length; i++) {
      nms[i] = yarn.getNodeManager(i);
    }
  }

  /** Starts the thread that serves requests. */
  void start() throws IOException {
    Files.createDirectories(dir.toPath());
    Thread t = new Thread(this::serve, "minicluster-controls");
    t.setDaemon(true);
    t.start();
  }

  /** Stops the NodeManagers start-nm made; MiniYARNCluster stops its own. */
  void stop() {
    stopping = true;
    for (NodeManager nm : started) {
      nm.stop();
    }
  }

  private void serve() {
    while (!stopping) {
      File[] reqs = dir.listFiles((d, name) -> name.endsWith(".cmd"));
      if (reqs != null) {
        Arrays.sort(reqs);
        for (File req : reqs) {
          answer(req);
        }
      }
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void answer(File req) {
    String id = req.getName().substring(0, req.getName().length() - ".cmd".length());
    String reply;
    String line = "";
    try {
      line = new String(Files.readAllBytes(req.toPath()), StandardCharsets.UTF_8).trim();
      LOG.info("control {}: {}", id, line);
      reply = "ok\n" + run(line.split("\\s+"));
    } catch (Exception | Error e) {
      // Answered whatever went wrong, so the script never waits in vain.
      LOG.warn("control {} ({}) failed", id, line, e);
      reply = "error\n" + line + ": " + e.getMessage();
    }
    LOG.info("control {}: {}", id, reply.replace('\n', ' '));
    try {
      File tmp = new File(dir, id + ".out.tmp");
      Files.write(tmp.toPath(), (reply + "\n").getBytes(StandardCharsets.UTF_8));
      Files.move(tmp.toPath(), new File(dir, id + ".out").toPath(), StandardCopyOption.ATOMIC_MOVE);
      Files.deleteIfExists(req.toPath());
    } catch (IOException e) {
      LOG.error("answering control request {}", id, e);
    }
  }

  private String run(String[] a) throws Exception {
    switch (a[0]) {
      case "restart-rm":
        args(a, 0, 0);
        return restartRM();
      case "failover-rm":
        args(a, 0, 0);
        return failoverRM();
      case "stop-nm":
        args(a, 1, 1);
        return stopNM(index(a[1]));
      case "start-nm":
        args(a, 1, 1);
        return startNM(index(a[1]));
      case "decommission":
        args(a, 1, 2);
        Integer timeout = null;
        if (a.length == 3) {
          timeout = parse("TIMEOUT_S", a[2]);
        }
        return decommission(index(a[1]), timeout);
      default:
        throw new IllegalArgumentException("unknown control " + a[0]);
    }
  }

  private static void args(String[] a, int min, int max) {
    int n = a.length - 1;
    if (n < min || n > max) {
      throw new IllegalArgumentException(a[0] + " takes " + (min == max ? "" + min : min + " to " + max)
          + " argument(s), got " + n);
    }
  }

  private static int parse(String what, String v) {
    try {
      int n = Integer.parseInt(v);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(what + " " + v + " is not a whole number >= 0");
  }

  private int index(String v) {
    int i = parse("NodeManager index", v);
    if (i >= nms.length) {
      throw new IllegalArgumentException("no NodeManager " + i + ": this cluster has " + nms.length
          + " (0 to " + (nms.length - 1) + ")");
    }
    return i;
  }

  /**
   * Restarts the RM in place. Recovery is on with a state store on local
   * disk (ClusterConfig), so the new RM reads back every application and
   * the NodeManagers resync with their containers: work-preserving.
   */
  private String restartRM() throws Exception {
    if (rms == 2) {
      throw new IllegalStateException("restart-rm restarts the one RM of RMS=1; this cluster has an HA pair:"
          + " use failover-rm");
    }
    yarn.restartResourceManager(0);
    ResourceManager rm = yarn.getResourceManager(0);
    // The new RM's web app made the JVM's newest Guice injector.
    WebAppRouting.restore("ResourceManager", rm);
    List<NodeId> live = liveNodes();
    await("the restarted ResourceManager to see all " + live.size() + " live NodeManagers RUNNING",
        () -> rm.getServiceState() == STATE.STARTED
            && live.stream().allMatch(id -> state(rm.getRMContext(), id) == NodeState.RUNNING));
    return "ResourceManager restarted: " + rm.getRMContext().getRMApps().size()
        + " application(s) recovered " + rm.getRMContext().getRMApps().keySet()
        + "; NodeManagers re-registered: " + live;
  }

  /**
   * Makes the standby RM active and the active one standby, as `yarn
   * rmadmin -transitionToStandby rmA; -transitionToActive rmB` would: the
   * new active RM reads the state store and the NodeManagers, failing
   * over to it, register again.
   */
  private String failoverRM() throws Exception {
    if (rms != 2) {
      throw new IllegalStateException("failover-rm needs an HA pair of ResourceManagers (RMS=2);"
          + " this cluster has one");
    }
    int from = yarn.getActiveRMIndex();
    if (from < 0) {
      throw new IllegalStateException("neither ResourceManager is active");
    }
    int to = 1 - from;
    transition(yarn.getResourceManager(from), false);
    standby.hold(from);
    standby.release(to);
    transition(yarn.getResourceManager(to), true);
    ResourceManager rm = yarn.getResourceManager(to);
    List<NodeId> live = liveNodes();
    await("rm" + to + " active with all " + live.size() + " live NodeManagers RUNNING",
        () -> yarn.getActiveRMIndex() == to
            && live.stream().allMatch(id -> state(rm.getRMContext(), id) == NodeState.RUNNING));
    return "ResourceManager rm" + to + " is active, rm" + from + " standby; "
        + rm.getRMContext().getRMApps().size() + " application(s) recovered "
        + rm.getRMContext().getRMApps().keySet() + "; NodeManagers registered: " + live;
  }

  /** An admin's HA transition of one RM, as rmadmin makes it. */
  static void transition(ResourceManager rm, boolean active) throws IOException {
    var req = new HAServiceProtocol.StateChangeRequestInfo(HAServiceProtocol.RequestSource.REQUEST_BY_USER);
    if (active) {
      rm.getRMContext().getRMAdminService().transitionToActive(req);
    } else {
      rm.getRMContext().getRMAdminService().transitionToStandby(req);
    }
  }

  private String stopNM(int i) throws Exception {
    NodeManager nm = nms[i];
    if (nm.getServiceState() != STATE.STARTED) {
      throw new IllegalStateException("NodeManager " + i + " is not running (" + nm.getServiceState() + ")");
    }
    NodeId id = nm.getNMContext().getNodeId();
    // A stopping NodeManager kills its containers and unregisters: the RM
    // has the node SHUTDOWN at once, not LOST after the expiry interval.
    nm.stop();
    RMContext rm = rmContext();
    await("the RM to have node " + id + " SHUTDOWN", () -> state(rm, id) == NodeState.SHUTDOWN);
    return "NodeManager " + i + " (node " + id + ") stopped; the RM has it SHUTDOWN";
  }

  /**
   * Starts a new NodeManager in slot i, with the stopped one's directories.
   * NodeManagers bind port 0, so it is a new node to the RM (a new NodeId),
   * with none of the old one's containers.
   */
  private String startNM(int i) throws Exception {
    NodeManager old = nms[i];
    if (old.getServiceState() != STATE.STOPPED) {
      throw new IllegalStateException("NodeManager " + i + " is running (node "
          + old.getNMContext().getNodeId() + "); stop-nm it first");
    }
    YarnConfiguration conf = new YarnConfiguration(old.getConfig());
    // The old NodeManager wrote the ports it bound back into its
    // configuration; a new one binds fresh ports, as the first did.
    String host = conf.get(YarnConfiguration.NM_ADDRESS).replaceFirst(":\\d+$", "");
    for (String key : new String[] {YarnConfiguration.NM_ADDRESS, YarnConfiguration.NM_LOCALIZER_ADDRESS,
        YarnConfiguration.NM_WEBAPP_ADDRESS, YarnConfiguration.NM_COLLECTOR_SERVICE_ADDRESS}) {
      conf.set(key, host + ":0");
    }
    NodeManager nm = new NodeManager() {
      @Override
      protected void doSecureLogin() {
        // As MiniYARNCluster's own: the JVM has logged in already.
      }
    };
    nm.init(conf);
    nm.start();
    started.add(nm);
    nms[i] = nm;
    WebAppRouting.restore("NodeManager " + i, nm);
    NodeId id = nm.getNMContext().getNodeId();
    RMContext rm = rmContext();
    await("the RM to have the new node " + id + " RUNNING", () -> state(rm, id) == NodeState.RUNNING);
    return "NodeManager " + i + " started as a new node " + id + " (was " + old.getNMContext().getNodeId()
        + "); the RM has it RUNNING";
  }

  /**
   * Graceful decommissioning of one node, as `yarn rmadmin -refreshNodes -g
   * TIMEOUT` does for the nodes of its exclude file. That file names hosts,
   * and every NodeManager here is on one host, so the harness hands the RM
   * the per-node event refreshNodes would: RMNodeDecommissioningEvent.
   */
  private String decommission(int i, Integer timeoutS) throws Exception {
    NodeManager nm = nms[i];
    if (nm.getServiceState() != STATE.STARTED) {
      throw new IllegalStateException("NodeManager " + i + " is not running (" + nm.getServiceState() + ")");
    }
    NodeId id = nm.getNMContext().getNodeId();
    RMContext rm = rmContext();
    if (state(rm, id) != NodeState.RUNNING) {
      throw new IllegalStateException("node " + id + " is " + state(rm, id) + ", not RUNNING");
    }
    rm.getDispatcher().getEventHandler().handle(new RMNodeDecommissioningEvent(id, timeoutS));
    await("the RM to have node " + id + " DECOMMISSIONING",
        () -> state(rm, id) == NodeState.DECOMMISSIONING || state(rm, id) == NodeState.DECOMMISSIONED);
    return "node " + id + " (NodeManager " + i + ") " + state(rm, id) + ", timeout "
        + (timeoutS == null ? "the cluster's default" : timeoutS + " s");
  }

  private RMContext rmContext() {
    ResourceManager rm = yarn.getResourceManager();
    if (rm == null) {
      throw new IllegalStateException("no ResourceManager is active");
    }
    return rm.getRMContext();
  }

  /** The nodes of the NodeManagers now running. */
  private List<NodeId> liveNodes() {
    List<NodeId> ids = new ArrayList<>();
    for (NodeManager nm : nms) {
      if (nm.getServiceState() == STATE.STARTED) {
        ids.add(nm.getNMContext().getNodeId());
      }
    }
    return ids;
  }

  /** The RM's state of a node, active or inactive; null if it has none. */
  private static NodeState state(RMContext rm, NodeId id) {
    RMNode n = rm.getRMNodes().get(id);
    if (n == null) {
      n = rm.getInactiveRMNodes().get(id);
    }
    return n == null ? null : n.getState();
  }

  private interface Condition {
    boolean holds() throws Exception;
  }

  private static void await(String what, Condition c) throws Exception {
    long deadline = System.currentTimeMillis() + ACTION_WAIT_MS;
    while (!c.holds()) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("timed out after " + ACTION_WAIT_MS / 1000 + " s waiting for " + what);
      }
      Thread.sleep(POLL_MS);
    }
  }
}
