package kerberos

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// ErrNoTicket is wrapped when the user has no usable Kerberos ticket: no
// ticket cache, one without a ticket-granting ticket, or an expired one.
var ErrNoTicket = errors.New("no Kerberos ticket")

// What a user needs to do when there is no ticket; every such error ends
// with it.
const loginHint = "run kinit, or set spindle.kerberos.principal and spindle.kerberos.keytab"

// Login says how to log in: with a keytab when Keytab is set (Principal
// must be too), else from the ticket cache.
type Login struct {
	// Principal is who logs in with the keytab: alice or alice@REALM
	// (the default realm of krb5.conf when it names none).
	Principal string
	// Keytab is a keytab file holding Principal's keys.
	Keytab string
}

// Identity is a logged-in Kerberos principal.
type Identity struct {
	cl        *client.Client
	principal string
	// Expires is when the ticket-granting ticket ends; zero for a keytab
	// login, which renews itself.
	Expires time.Time
	// FromKeytab tells whether the identity can log in again by itself.
	FromKeytab bool
	// ConfigPath is the krb5.conf it logged in with: what a process it
	// starts elsewhere (an ApplicationMaster) needs to log in too.
	ConfigPath string
}

// Principal is the full principal name, user@REALM or service/host@REALM.
func (id *Identity) Principal() string { return id.principal }

// ShortName is the user name the principal maps to under Hadoop's
// DEFAULT auth_to_local rule: its first component (alice of alice@REALM
// and of alice/admin@REALM).
func (id *Identity) ShortName() string { return ShortName(id.principal) }

// ShortName is principal's first component, the user name Hadoop's
// DEFAULT auth_to_local rule maps it to.
func ShortName(principal string) string {
	name, _ := splitPrincipal(principal, "")
	first, _, _ := strings.Cut(name, "/")
	return first
}

// Client is the gokrb5 client, for libraries that take one (colinmarc/hdfs).
func (id *Identity) Client() *client.Client { return id.cl }

// Close stops a keytab login's background renewal and forgets its tickets.
func (id *Identity) Close() { id.cl.Destroy() }

// LogIn logs in as l says. env reads the environment: KRB5_CONFIG names
// krb5.conf, KRB5CCNAME the ticket cache.
func LogIn(l Login, env func(string) (string, bool)) (*Identity, error) {
	conf, path, err := loadConfig(env)
	if err != nil {
		return nil, err
	}
	var id *Identity
	if l.Keytab != "" || l.Principal != "" {
		id, err = keytabLogin(l, conf)
	} else {
		id, err = cacheLogin(conf, env)
	}
	if err != nil {
		return nil, err
	}
	id.ConfigPath = path
	return id, nil
}

// loadConfig reads krb5.conf: the first readable file of KRB5_CONFIG (a
// colon-separated list, as MIT's library reads it), else /etc/krb5.conf.
func loadConfig(env func(string) (string, bool)) (*config.Config, string, error) {
	const fallback = "/etc/krb5.conf"
	paths, from := []string{fallback}, fallback
	if v, ok := env("KRB5_CONFIG"); ok && v != "" {
		paths, from = strings.Split(v, ":"), "KRB5_CONFIG="+v
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		conf, err := config.Load(p)
		if err != nil {
			return nil, "", fmt.Errorf("kerberos: reading %s: %v", p, err)
		}
		if conf.LibDefaults.DefaultRealm == "" {
			return nil, "", fmt.Errorf("kerberos: %s names no default_realm in [libdefaults]", p)
		}
		return conf, p, nil
	}
	return nil, "", fmt.Errorf("kerberos: no krb5.conf (%s): set KRB5_CONFIG to the cluster's krb5.conf", from)
}

func keytabLogin(l Login, conf *config.Config) (*Identity, error) {
	if l.Keytab == "" || l.Principal == "" {
		return nil, errors.New("kerberos: spindle.kerberos.principal and spindle.kerberos.keytab go together: set both, or neither to use the ticket cache")
	}
	kt, err := keytab.Load(l.Keytab)
	if err != nil {
		return nil, fmt.Errorf("kerberos: reading the keytab %s: %v", l.Keytab, err)
	}
	name, realm := splitPrincipal(l.Principal, conf.LibDefaults.DefaultRealm)
	cl := client.NewWithKeytab(name, realm, kt, conf, client.DisablePAFXFAST(true))
	if err := cl.Login(); err != nil {
		return nil, fmt.Errorf("kerberos: logging in as %s@%s with the keytab %s: %s", name, realm, l.Keytab, explain(err, conf, realm))
	}
	return &Identity{cl: cl, principal: name + "@" + realm, FromKeytab: true}, nil
}

// splitPrincipal splits user@REALM, giving a bare name the default realm.
func splitPrincipal(p, defaultRealm string) (name, realm string) {
	if i := strings.LastIndex(p, "@"); i >= 0 {
		return p[:i], p[i+1:]
	}
	return p, defaultRealm
}
