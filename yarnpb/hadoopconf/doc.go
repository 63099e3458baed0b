// Package hadoopconf loads Hadoop's client configuration (core-site.xml,
// hdfs-site.xml, yarn-site.xml) with the semantics Hadoop users rely on,
// and derives from it what Spindle's YARN client needs: the
// ResourceManager addresses (with HA), the RPC security settings and the
// default file system.
//
//	conf, err := hadoopconf.FromEnvironment(os.LookupEnv)
//	if err != nil { ... }                        // names the file and line
//	for _, o := range conf.IgnoredOverrides() {  // what Hadoop would log
//		log.Print(o)
//	}
//	rms, err := conf.RMAddresses(hadoopconf.RMAddress) // one per rm-id under HA
//	qops, err := conf.RPCProtection()                  // ["auth"] by default
//	opts := hdfs.ClientOptionsFromConf(conf.HadoopConf())
//
// # Resources and final
//
// Load reads core-site.xml, hdfs-site.xml and yarn-site.xml from each
// directory in turn (FromEnvironment: HADOOP_CONF_DIR or
// $HADOOP_HOME/etc/hadoop, then YARN_CONF_DIR). A later definition of a key
// overrides an earlier one, within a file too, unless an earlier one was
// marked <final>true</final>: then the later one is ignored and recorded
// (IgnoredOverrides), as Hadoop ignores it with a warning. A final property
// without a value still closes its key. Underneath the files lie the
// values of core-default.xml and yarn-default.xml for the keys this package
// reads (and hadoop.tmp.dir), so that ${yarn.resourcemanager.hostname} and
// ${hadoop.tmp.dir} resolve as they do in Java. fs.default.name is read as
// fs.defaultFS, as Hadoop's deprecation table has it.
//
// # Substitution
//
// Get expands ${...} as Hadoop's Configuration.get, at lookup time:
//
//   - ${env.NAME} is the environment variable, ${env.NAME:-default} gives
//     default when it is unset or empty, ${env.NAME-default} only when it
//     is unset;
//   - any other ${name} is first a system property (Env.System: user.name,
//     user.home, java.io.tmpdir, ...; Hadoop reads Java's), then a key of
//     the configuration; an env.NAME that is unset also falls back to a key;
//   - the left-most reference is replaced first, and expansion stops at the
//     first reference nothing defines, leaving it (and all after it) as
//     written;
//   - a value that contains its own reference is returned unexpanded;
//   - after 20 passes (Hadoop's MAX_SUBST; so at most 19 replacements) a
//     value still holding a reference is an error: Lookup and the typed
//     getters report it, Get returns the raw value.
//
// The environment and system properties come in as an Env, never from the
// process directly, so that tests set them.
//
// # Where this differs from Hadoop
//
// Hadoop is silent where a mistake loses a setting; here those are errors
// naming the file and line or the key and value: a <property> without a
// name, a repeated <name>/<value>/<final>, a <final> other than "true" or
// "false" (Hadoop reads " true" as not final), a root other than
// <configuration>, a boolean other than true or false (Hadoop falls back
// to the default), an invalid hadoop.rpc.protection or authentication
// method. Elements Hadoop ignores (<description>, <source>, <tag>, vendors'
// extensions) are ignored here too. An empty <value/> is no value at all,
// exactly as in Hadoop (its parser records only non-empty text), so it
// neither sets "" nor overrides an earlier value; value="" in the short
// form does set "". xi:include resolves a relative href against the
// including file's own directory (Hadoop uses the top-level file's), reads
// only local files, and refuses include cycles. Resources larger than 16
// MiB and expansions beyond 1 MiB are refused. Spindle does not load the
// full *-default.xml files, so Get of a key outside the built-in subset
// that no site file sets has no value.
package hadoopconf
