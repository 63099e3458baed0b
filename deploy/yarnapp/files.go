package yarnapp

// Files the submitter ships to the ApplicationMaster's working directory,
// where deploy/appmaster reads them.
const (
	JobFile       = "job.yaml"
	SettingsFile  = "spindle.conf"
	ExecutorFiles = "executor-resources.pb" // the executors' local resources
	// AllocationFile is spindle.scheduler.allocation.file's copy.
	AllocationFile = "fairscheduler.xml"
	// On a Kerberos cluster: the krb5.conf the submitter logged in with,
	// and spindle.kerberos.keytab's copy, so the AM can log in to fetch
	// fresh tokens.
	Krb5Conf = "krb5.conf"
	Keytab   = "spindle.keytab"
)

// SessionSecretAlias names a YARN session's secret in its
// ApplicationMaster's credentials.
const SessionSecretAlias = "spindle.session.secret"
