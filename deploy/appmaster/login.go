package appmaster

import (
	"os"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/kerberos"
)

// amLogin is how the AM is logged in to a Kerberos cluster: with the
// keytab its submitter shipped, or not at all (its delegation tokens
// only).
type amLogin struct {
	// keytab says the submitter shipped one.
	keytab bool
	// id is the login with it, which the token refresh and the journal
	// share (gokrb5 renews its ticket); nil without a keytab, or when
	// the login failed.
	id *kerberos.Identity
}

// logIn logs the AM in with the keytab its submitter shipped, on a
// Kerberos cluster. A login that fails is logged, not fatal: the AM goes
// on with its delegation tokens, which it then cannot refresh.
func logIn(conf *config.Config, hconf *hadoopconf.Conf, log logrus.FieldLogger) (amLogin, error) {
	if method, err := hconf.Authentication(); err != nil || method != hadoopconf.AuthKerberos {
		return amLogin{}, err
	}
	login, err := settings.KerberosLogin(conf)
	if err != nil || login.Keytab == "" {
		return amLogin{}, err
	}
	id, err := kerberos.LogIn(login, os.LookupEnv)
	if err != nil {
		log.WithError(err).Error("cannot log in with the shipped keytab: the delegation tokens will not be refreshed, and no journal is kept")
		return amLogin{keytab: true}, nil
	}
	return amLogin{keytab: true, id: id}, nil
}

// close ends the login, if there is one.
func (l amLogin) close() {
	if l.id != nil {
		l.id.Close()
	}
}
