package hadoopconf

// defaults are the values of Hadoop's core-default.xml and yarn-default.xml
// for the keys this package reads, and hadoop.tmp.dir, which site files
// commonly refer to. The Java client loads those files from its jars; we
// carry the few values that matter, so that a site file's
// ${yarn.resourcemanager.hostname} or ${hadoop.tmp.dir} resolves as it
// would there.
var defaults = map[string]struct{ value, file string }{
	"hadoop.tmp.dir":                 {"/tmp/hadoop-${user.name}", "core-default.xml"},
	"fs.defaultFS":                   {"file:///", "core-default.xml"},
	"hadoop.security.authentication": {"simple", "core-default.xml"},
	"hadoop.rpc.protection":          {"authentication", "core-default.xml"},

	"yarn.resourcemanager.hostname":                 {"0.0.0.0", "yarn-default.xml"},
	"yarn.resourcemanager.address":                  {"${yarn.resourcemanager.hostname}:8032", "yarn-default.xml"},
	"yarn.resourcemanager.scheduler.address":        {"${yarn.resourcemanager.hostname}:8030", "yarn-default.xml"},
	"yarn.resourcemanager.resource-tracker.address": {"${yarn.resourcemanager.hostname}:8031", "yarn-default.xml"},
	"yarn.resourcemanager.admin.address":            {"${yarn.resourcemanager.hostname}:8033", "yarn-default.xml"},
	"yarn.resourcemanager.webapp.address":           {"${yarn.resourcemanager.hostname}:8088", "yarn-default.xml"},
	"yarn.resourcemanager.webapp.https.address":     {"${yarn.resourcemanager.hostname}:8090", "yarn-default.xml"},
	"yarn.resourcemanager.ha.enabled":               {"false", "yarn-default.xml"},
}

// deprecatedKeys maps old key names Hadoop still honours to their
// replacements (Configuration's defaultDeprecations, the one a client
// meets). Hadoop stores a deprecated key's value under the new name, so
// order and final apply across both spellings.
var deprecatedKeys = map[string]string{
	"fs.default.name": "fs.defaultFS",
}
