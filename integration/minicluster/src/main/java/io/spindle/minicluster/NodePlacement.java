package io.spindle.minicluster;

import java.io.File;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where containers may go, as a GPU cluster would say it: the RM's
 * placement-constraints handler (PLACEMENT), centralized node attributes
 * (NODE_ATTRIBUTES, as `yarn rmadmin -nodeattributes -replace` sets them)
 * and node labels (NODE_LABELS: the label added to the cluster, put on the
 * node, and the default queue allowed to use all of it).
 *
 * <p>Every NodeManager here runs on one host, and YARN keys node attributes
 * by host; with yarn.scheduler.include-port-in-node-name the scheduler names
 * its nodes host:port, so attributes given for that name reach one node.
 */
final class NodePlacement {
  private static final Logger LOG = LoggerFactory.getLogger(NodePlacement.class);

  private NodePlacement() {}

  /** What must be set before the RM starts. */
  static void configure(Configuration conf, Settings s) {
    if (!s.placementHandler.isEmpty()) {
      conf.set("yarn.resourcemanager.placement-constraints.handler", s.placementHandler);
    }
    // The stores default to /tmp/hadoop-USER: keep them with the cluster.
    conf.set("yarn.node-attribute.fs-store.root-dir", new File(s.workDir(), "node-attributes").toURI().toString());
    if (!s.nodeLabels.isEmpty()) {
      conf.setBoolean(YarnConfiguration.NODE_LABELS_ENABLED, true);
      conf.set(YarnConfiguration.NODELABEL_CONFIGURATION_TYPE, YarnConfiguration.CENTRALIZED_NODELABEL_CONFIGURATION_TYPE);
      conf.set(YarnConfiguration.FS_NODE_LABELS_STORE_ROOT_DIR, new File(s.workDir(), "node-labels").toURI().toString());
    }
  }

  /** Labels and attributes, once the nodes have registered. */
  static void apply(Settings s, MiniYARNCluster yarn) throws Exception {
    ResourceManager rm = yarn.getResourceManager();
    Map<Integer, Set<String>> labels = perNode(s.nodeLabels, s.nodeManagers, "NODE_LABELS");
    if (!labels.isEmpty()) {
      Set<String> all = new HashSet<>();
      labels.values().forEach(all::addAll);
      var mgr = rm.getRMContext().getNodeLabelManager();
      mgr.addToCluserNodeLabelsWithDefaultExclusivity(all);
      Map<NodeId, Set<String>> onNodes = new HashMap<>();
      labels.forEach((i, l) -> onNodes.put(nodeId(yarn, i), l));
      mgr.replaceLabelsOnNode(onNodes);
      // Queues may name only labels the cluster has: now they may.
      Configuration conf = new Configuration(rm.getConfig());
      String root = "yarn.scheduler.capacity.root.";
      String[] queues = s.preemption ? new String[] {"default", "high"} : new String[] {"default"};
      for (String label : all) {
        conf.set(root + "accessible-node-labels", String.join(",", all));
        conf.set(root + "accessible-node-labels." + label + ".capacity", "100");
        for (String q : queues) {
          conf.set(root + q + ".accessible-node-labels", String.join(",", all));
          conf.set(root + q + ".accessible-node-labels." + label + ".capacity", Integer.toString(100 / queues.length));
          conf.set(root + q + ".accessible-node-labels." + label + ".maximum-capacity", "100");
        }
      }
      ((CapacityScheduler) rm.getResourceScheduler()).reinitialize(conf, rm.getRMContext());
      LOG.info("node labels {} on nodes {}", all, onNodes);
    }
    Map<Integer, Set<String>> attrs = perNode(s.nodeAttributes, s.nodeManagers, "NODE_ATTRIBUTES");
    if (!attrs.isEmpty()) {
      Map<String, Set<NodeAttribute>> onNodes = new HashMap<>();
      for (var e : attrs.entrySet()) {
        Set<NodeAttribute> set = new HashSet<>();
        for (String a : e.getValue()) {
          int eq = a.indexOf('=');
          if (eq <= 0) {
            throw new IllegalArgumentException("NODE_ATTRIBUTES: " + a + ": want name=value");
          }
          set.add(NodeAttribute.newInstance(NodeAttribute.PREFIX_CENTRALIZED, a.substring(0, eq),
              NodeAttributeType.STRING, a.substring(eq + 1)));
        }
        onNodes.put(nodeId(yarn, e.getKey()).toString(), set);
      }
      rm.getRMContext().getNodeAttributesManager().replaceNodeAttributes(NodeAttribute.PREFIX_CENTRALIZED, onNodes);
      waitForAttributes(rm, onNodes);
      LOG.info("node attributes {}", onNodes);
    }
  }

  private static NodeId nodeId(MiniYARNCluster yarn, int i) {
    return yarn.getNodeManager(i).getNMContext().getNodeId();
  }

  /**
   * The scheduler takes attributes from an event: wait until its nodes
   * carry them, so that the cluster is ready only once they hold.
   */
  private static void waitForAttributes(ResourceManager rm, Map<String, Set<NodeAttribute>> want)
      throws InterruptedException {
    var scheduler = (CapacityScheduler) rm.getResourceScheduler();
    long deadline = System.currentTimeMillis() + 30_000;
    for (var e : want.entrySet()) {
      NodeId id = NodeId.fromString(e.getKey());
      while (!carries(scheduler, id, e.getValue())) {
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException("node " + id + " did not take the attributes " + e.getValue());
        }
        Thread.sleep(100);
      }
    }
  }

  private static boolean carries(CapacityScheduler scheduler, NodeId id, Set<NodeAttribute> want) {
    var node = scheduler.getNode(id);
    return node != null && node.getNodeAttributes() != null && node.getNodeAttributes().containsAll(want);
  }

  /** "I:x,J:y,I:z" as {I: [x, z], J: [y]}, every I a NodeManager's index. */
  static Map<Integer, Set<String>> perNode(String spec, int nodeManagers, String knob) {
    Map<Integer, Set<String>> out = new LinkedHashMap<>();
    if (spec.isEmpty()) {
      return out;
    }
    for (String entry : spec.split(",")) {
      int colon = entry.indexOf(':');
      int i;
      try {
        i = Integer.parseInt(entry.substring(0, Math.max(colon, 0)).trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(knob + ": " + entry + ": want I:value, I a NodeManager's index");
      }
      if (i < 0 || i >= nodeManagers || colon == entry.length() - 1) {
        throw new IllegalArgumentException(knob + ": " + entry + ": want I:value with I in 0.." + (nodeManagers - 1));
      }
      out.computeIfAbsent(i, k -> new HashSet<>()).add(entry.substring(colon + 1).trim());
    }
    return out;
  }
}
