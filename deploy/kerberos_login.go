package deploy

import (
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/yarnpb/kerberos"
)

// defaultsLogin is settings.KerberosLogin of the defaults file alone, for the
// commands that take no --conf (status, kill, list).
func defaultsLogin() (kerberos.Login, error) {
	conf, err := loadConfig("", nil)
	if err != nil {
		return kerberos.Login{}, err
	}
	return settings.KerberosLogin(conf)
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
