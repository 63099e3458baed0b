package settings

import (
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/yarnpb/kerberos"
)

// KerberosLogin is how conf says to log in on a Kerberos cluster: with
// spindle.kerberos.principal and .keytab (Spark's spark.kerberos.*), or,
// when both are unset, from kinit's ticket cache.
func KerberosLogin(conf *config.Config) (kerberos.Login, error) {
	s := Read(conf)
	l := kerberos.Login{Principal: s.String("spindle.kerberos.principal"), Keytab: s.String("spindle.kerberos.keytab")}
	return l, s.Err()
}
