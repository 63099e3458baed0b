package io.spindle.minicluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a standby ResourceManager's client, scheduler and resource-tracker
 * ports, which it binds only when it becomes active: without a holder,
 * another cluster on the machine choosing its ports meanwhile (the Go side
 * picks free ones at random) could take one, and failover-rm would fail
 * with "Address already in use". The admin and web ports are bound by
 * standby RMs too, so they need no holder.
 *
 * <p>A holder is a socket bound but neither listening nor connected: a
 * client dialling the standby RM is refused at once and fails over, as it
 * would be with the port free, while another process's bind fails. It
 * does not ask SO_REUSEADDR, which would let a binder that asks it too
 * share the port; so a port the RM's own closed connections still hold
 * in TIME_WAIT, just after it went standby, cannot be held.
 */
final class StandbyPorts {
  private static final Logger LOG = LoggerFactory.getLogger(StandbyPorts.class);
  private final String host;
  private final int[][] ports;
  private final List<List<Socket>> held = new ArrayList<>();

  /** ports[i] are RM i's active-only ports. */
  StandbyPorts(String host, int[][] ports) {
    this.host = host;
    this.ports = ports;
    for (int i = 0; i < ports.length; i++) {
      held.add(new ArrayList<>());
    }
  }

  static StandbyPorts of(Settings s) {
    return new StandbyPorts(s.host, new int[][] {
      {s.rmPort, s.rmSchedulerPort, s.rmTrackerPort},
      {s.rm1Port, s.rm1SchedulerPort, s.rm1TrackerPort},
    });
  }

  /**
   * Binds RM i's active-only ports, which it has just let go of (or never
   * had). A port it cannot bind is left as it was without a holder: the
   * RM may still find it free.
   */
  synchronized void hold(int i) throws IOException {
    release(i);
    for (int port : ports[i]) {
      Socket s = new Socket();
      s.setReuseAddress(false);
      try {
        s.bind(new InetSocketAddress(host, port));
        held.get(i).add(s);
      } catch (IOException e) {
        s.close();
        LOG.warn("holding standby rm{}'s port {}: {}", i, port, e.getMessage());
      }
    }
  }

  /** Lets RM i's ports go, just before it becomes active and binds them. */
  synchronized void release(int i) throws IOException {
    for (Socket s : held.get(i)) {
      s.close();
    }
    held.get(i).clear();
  }
}
