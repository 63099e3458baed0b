package io.spindle.minicluster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * A KDC (Hadoop's MiniKdc) and what a Kerberized cluster needs of it: one
 * service principal, hadoop/localhost, for every daemon (RM, NMs, NameNode,
 * DataNode), HTTP/localhost for SPNEGO, and users: alice, who runs the
 * tests' applications, and bob and carol, whom the applications' ACLs let
 * in or keep out; each with a keytab under DIR/kdc (DIR/kdc/bob.keytab);
 * the servers' security settings; and a krb5.conf for
 * clients (DIR/krb5.conf) that keeps to AES, the enctypes whose GSSAPI
 * tokens (RFC 4121) Spindle writes.
 */
final class Kerberos {
  static final String HOST = "localhost";
  static final String USER = "alice";
  /** Users other than the applications' owner, for ACL tests. */
  static final String[] OTHER_USERS = {"bob", "carol"};

  private final MiniKdc kdc;
  final File serviceKeytab;
  final File userKeytab;
  final File clientKrb5Conf;

  private Kerberos(MiniKdc kdc, File serviceKeytab, File userKeytab, File clientKrb5Conf) {
    this.kdc = kdc;
    this.serviceKeytab = serviceKeytab;
    this.userKeytab = userKeytab;
    this.clientKrb5Conf = clientKrb5Conf;
  }

  /** Starts the KDC in DIR/kdc and creates the principals and keytabs. */
  static Kerberos start(Settings s) throws Exception {
    File dir = new File(s.dir, "kdc");
    Files.createDirectories(dir.toPath());
    Properties conf = MiniKdc.createConf();
    MiniKdc kdc = new MiniKdc(conf, dir);
    kdc.start(); // also points this JVM's java.security.krb5.conf at the KDC
    File service = new File(dir, "hadoop.keytab");
    kdc.createPrincipal(service, "hadoop/" + HOST, "HTTP/" + HOST);
    File user = new File(dir, USER + ".keytab");
    kdc.createPrincipal(user, USER);
    for (String other : OTHER_USERS) {
      kdc.createPrincipal(new File(dir, other + ".keytab"), other);
    }
    File krb5 = new File(s.dir, "krb5.conf");
    Files.write(krb5.toPath(), clientKrb5Conf(kdc).getBytes(StandardCharsets.UTF_8));
    return new Kerberos(kdc, service, user, krb5);
  }

  String realm() {
    return kdc.getRealm();
  }

  String servicePrincipal() {
    return "hadoop/" + HOST + "@" + realm();
  }

  String userPrincipal() {
    return USER + "@" + realm();
  }

  /**
   * The krb5.conf clients use: TCP (MiniKdc serves no UDP), no DNS, no
   * reverse lookups, AES only.
   */
  private static String clientKrb5Conf(MiniKdc kdc) {
    String aes = "aes128-cts-hmac-sha1-96 aes256-cts-hmac-sha1-96";
    return "[libdefaults]\n"
        + "  default_realm = " + kdc.getRealm() + "\n"
        + "  udp_preference_limit = 1\n"
        + "  dns_lookup_kdc = false\n"
        + "  dns_lookup_realm = false\n"
        + "  rdns = false\n"
        + "  dns_canonicalize_hostname = false\n"
        + "  forwardable = true\n"
        + "  ticket_lifetime = 24h\n"
        + "  renew_lifetime = 7d\n"
        + "  default_tkt_enctypes = " + aes + "\n"
        + "  default_tgs_enctypes = " + aes + "\n"
        + "  permitted_enctypes = " + aes + "\n"
        + "\n[realms]\n"
        + "  " + kdc.getRealm() + " = {\n"
        + "    kdc = " + HOST + ":" + kdc.getPort() + "\n"
        + "  }\n";
  }

  /** Secures a server configuration, YARN's or HDFS's. */
  void secure(Configuration conf, Settings s) {
    String principal = servicePrincipal();
    String keytab = serviceKeytab.getAbsolutePath();
    conf.set("hadoop.security.authentication", "kerberos");
    conf.setBoolean("hadoop.security.authorization", true);
    conf.set("hadoop.security.auth_to_local", authToLocal());
    conf.set(YarnConfiguration.RM_PRINCIPAL, principal);
    conf.set(YarnConfiguration.RM_KEYTAB, keytab);
    conf.set(YarnConfiguration.NM_PRINCIPAL, principal);
    conf.set(YarnConfiguration.NM_KEYTAB, keytab);
    conf.set(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, principal);
    conf.set(DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY, keytab);
    conf.set(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, principal);
    conf.set(DFSConfigKeys.DFS_DATANODE_KEYTAB_FILE_KEY, keytab);
    conf.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_PRINCIPAL_KEY, "HTTP/" + HOST + "@" + realm());
    conf.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_KEYTAB_KEY, keytab);
    conf.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    // DataNodes on unprivileged ports without SASL on data transfer: a
    // test cluster's shortcut, which Hadoop's own secure tests take too.
    conf.setBoolean(DFSConfigKeys.IGNORE_SECURE_PORTS_FOR_TESTING_KEY, true);
    // The RM's pages and REST API stay open (tests read them over plain
    // HTTP); SPNEGO guards WebHDFS, where a delegation token also opens.
    conf.set("hadoop.http.authentication.type", "simple");
    conf.setBoolean("hadoop.http.authentication.simple.anonymous.allowed", true);
    conf.setBoolean("yarn.resourcemanager.webapp.delegation-token-auth-filter.enabled", false);
    if (s.tokenMaxLifetimeS > 0) {
      long ms = s.tokenMaxLifetimeS * 1000L;
      conf.setLong("yarn.resourcemanager.delegation.token.max-lifetime", ms);
      conf.setLong(DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_MAX_LIFETIME_KEY, ms);
    }
    if (s.tokenRenewIntervalS > 0) {
      long ms = s.tokenRenewIntervalS * 1000L;
      conf.setLong("yarn.resourcemanager.delegation.token.renew-interval", ms);
      conf.setLong(DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_RENEW_INTERVAL_KEY, ms);
    }
  }

  /**
   * What YARN alone needs on top of {@link #secure}: application ACLs
   * enforced, as on a production cluster, so that the RM hands
   * client-to-AM tokens and kills only to whom an application's ACLs
   * allow (YARN's default admin ACL, "*", and the queues' administer ACLs,
   * "*" by default for root and in the capacity-scheduler.xml of
   * hadoop-yarn-server-tests for root.default, would let every user view
   * and modify every application); and web users named, so that the web
   * proxy tells an ApplicationMaster whom it serves. They are named with
   * Hadoop's simple (pseudo) authentication, ?user.name=bob, anonymous
   * users still allowed (tests read the REST API plainly); a production
   * cluster would use SPNEGO, which names them to the proxy the same way.
   */
  void secureYarn(Configuration conf) {
    conf.setBoolean(YarnConfiguration.YARN_ACL_ENABLE, true);
    conf.set(YarnConfiguration.YARN_ADMIN_ACL, "hadoop");
    conf.set("yarn.scheduler.capacity.root.acl_administer_queue", "hadoop");
    conf.set("yarn.scheduler.capacity.root.default.acl_administer_queue", "hadoop");
    conf.set("hadoop.http.filter.initializers", "org.apache.hadoop.security.AuthenticationFilterInitializer");
  }

  /** Principals to user names: alice@REALM to alice, hadoop/host@REALM to hadoop. */
  static String authToLocal() {
    return "RULE:[1:$1] RULE:[2:$1] DEFAULT";
  }

  /**
   * Logs this JVM in as the service principal before any daemon starts, so
   * that it owns HDFS (its superuser) and can prepare directories.
   */
  void login(Configuration conf) throws IOException {
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation.loginUserFromKeytab(servicePrincipal(), serviceKeytab.getAbsolutePath());
  }

  void stop() {
    kdc.stop();
  }
}
