package io.spindle.minicluster;

import com.google.inject.servlet.GuiceFilter;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.nodemanager.webapp.WebServer;
import org.apache.hadoop.yarn.webapp.WebApp;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives each YARN web app in this JVM its own routes back.
 *
 * <p>YARN's web apps (WebApps.Builder) put Guice's GuiceFilter in front of
 * every page and REST resource, declared to Jetty by class name. Jetty
 * builds that filter with its no-argument constructor, and such a filter
 * routes through GuiceFilter's one static pipeline: the pipeline of the
 * injector created last in the JVM. A real cluster runs each daemon in a
 * JVM of its own; the mini cluster runs the ResourceManager and every
 * NodeManager in one, so on Hadoop 3.3 and 3.4 every web port — the RM's
 * REST API, its web pages and its web proxy included — answered with the
 * last NodeManager's routes (404 for /ws/v1/cluster/*, and another node's
 * /ws/v1/node/* on every NodeManager's port).
 *
 * <p>Each web app also keeps a GuiceFilter its own injector made, which
 * carries that injector's pipeline; the filter Jetty holds is given that
 * pipeline, so it routes as if its daemon had the JVM to itself. The
 * pipelines were initialised when their servers started. Where Jetty's
 * filter already routes through its own web app's pipeline, nothing
 * changes.
 */
final class WebAppRouting {
  private static final Logger LOG = LoggerFactory.getLogger(WebAppRouting.class);

  private WebAppRouting() {}

  /** Routes the RM's and every NodeManager's web app through its own pipeline. */
  static void restore(MiniYARNCluster yarn, int rms, int nodeManagers) throws ReflectiveOperationException {
    int fixed = 0;
    for (int i = 0; i < rms; i++) {
      fixed += restore("ResourceManager " + i, yarn.getResourceManager(i));
    }
    for (int i = 0; i < nodeManagers; i++) {
      fixed += restore("NodeManager " + i, yarn.getNodeManager(i));
    }
    LOG.info("web apps routed through their own Guice pipelines: {} filters re-pointed", fixed);
  }

  /**
   * Routes one RM's web app through its own pipeline: a restarted RM's,
   * whose injector is now the JVM's newest.
   */
  static int restore(String daemon, ResourceManager rm) throws ReflectiveOperationException {
    return restore(daemon, (WebApp) field(rm, "webApp"));
  }

  /** Routes one NodeManager's web app through its own pipeline. */
  static int restore(String daemon, NodeManager nm) throws ReflectiveOperationException {
    int fixed = 0;
    for (Service s : nm.getServices()) {
      if (s instanceof WebServer) {
        fixed += restore(daemon, (WebApp) field(s, "webApp"));
      }
    }
    return fixed;
  }

  private static int restore(String daemon, WebApp app) throws ReflectiveOperationException {
    if (app == null) {
      throw new IllegalStateException(daemon + " has no web app");
    }
    Object own = field(field(app, "guiceFilter"), "injectedPipeline");
    if (own == null) {
      throw new IllegalStateException(daemon + "'s web app keeps no Guice pipeline of its own");
    }
    HttpServer2 server = app.httpServer();
    List<ServletContextHandler> contexts = new ArrayList<>();
    contexts.add((ServletContextHandler) field(server, "webAppContext"));
    @SuppressWarnings("unchecked")
    Map<ServletContextHandler, Boolean> others =
        (Map<ServletContextHandler, Boolean>) field(server, "defaultContexts");
    contexts.addAll(others.keySet());
    int n = 0;
    for (ServletContextHandler ctx : contexts) {
      FilterHolder[] holders = ctx.getServletHandler().getFilters();
      if (holders == null) {
        continue;
      }
      for (FilterHolder h : holders) {
        if (h.getFilter() instanceof GuiceFilter g && field(g, "injectedPipeline") != own) {
          set(g, "injectedPipeline", own);
          n++;
        }
      }
    }
    return n;
  }

  private static Object field(Object o, String name) throws ReflectiveOperationException {
    Field f = declared(o.getClass(), name);
    f.setAccessible(true);
    return f.get(o);
  }

  private static void set(Object o, String name, Object value) throws ReflectiveOperationException {
    Field f = declared(o.getClass(), name);
    f.setAccessible(true);
    f.set(o, value);
  }

  /** The field of that name declared by the class or a superclass. */
  private static Field declared(Class<?> c, String name) throws NoSuchFieldException {
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      try {
        return k.getDeclaredField(name);
      } catch (NoSuchFieldException e) {
        // look further up
      }
    }
    throw new NoSuchFieldException(c.getName() + "." + name);
  }
}
