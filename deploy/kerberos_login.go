package deploy

import (
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/yarnpb/kerberos"
)

// kerberosLogin is how conf says to log in on a Kerberos cluster: with
// spindle.kerberos.principal and .keytab (Spark's spark.kerberos.*), or,
// when both are unset, from kinit's ticket cache.
func kerberosLogin(conf *config.Config) (kerberos.Login, error) {
	s := &settings{c: conf}
	l := kerberos.Login{Principal: s.str("spindle.kerberos.principal"), Keytab: s.str("spindle.kerberos.keytab")}
	return l, s.err
}

// defaultsLogin is kerberosLogin of the defaults file alone, for the
// commands that take no --conf (status, kill, list).
func defaultsLogin() (kerberos.Login, error) {
	conf, err := loadConfig("", nil)
	if err != nil {
		return kerberos.Login{}, err
	}
	return kerberosLogin(conf)
}

// connectWithDefaults connects to the RM as the defaults file says to log
// in.
func connectWithDefaults() (*yarnapp.Connection, error) {
	login, err := defaultsLogin()
	if err != nil {
		return nil, err
	}
	return yarnapp.Connect(login)
}
