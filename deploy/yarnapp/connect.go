package yarnapp

import (
	"fmt"
	"os"
	"os/user"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/kerberos"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// User is who the submission acts as: HADOOP_USER_NAME when set, as
// Hadoop's clients honour it on clusters without Kerberos, else the OS user.
func User(lookup func(string) (string, bool)) string {
	if u, ok := lookup("HADOOP_USER_NAME"); ok && u != "" {
		return u
	}
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "spindle"
}

// Connection is a client of the cluster the environment's Hadoop
// configuration names.
type Connection struct {
	RM   *yarn.ApplicationClient
	Conf *hadoopconf.Conf
	// User is who the client acts as: User's answer, or on a Kerberos
	// cluster the logged-in principal's short name.
	User string
	// Identity is the Kerberos login; nil on a cluster without Kerberos.
	Identity *kerberos.Identity
}

// Connect reads the Hadoop configuration from the environment and returns
// a client for the ResourceManager(s) it names. On a Kerberos cluster it
// logs in as login says first, and fails with what to do when it cannot.
func Connect(login kerberos.Login) (*Connection, error) {
	return ConnectWith(login, os.LookupEnv)
}

// ConnectWith is Connect with the environment lookupEnv gives
// (HADOOP_CONF_DIR, KRB5_CONFIG, ...), for a caller that talks to more
// than one cluster at once.
func ConnectWith(login kerberos.Login, lookupEnv func(string) (string, bool)) (*Connection, error) {
	conf, err := hadoopconf.FromEnvironment(lookupEnv)
	if err != nil {
		return nil, err
	}
	addrs, err := yarn.Addresses(conf, hadoopconf.RMAddress)
	if err != nil {
		return nil, err
	}
	c := &Connection{Conf: conf, User: User(lookupEnv)}
	opts, err := yarn.ClientOptions(conf, c.User)
	if err != nil {
		return nil, err
	}
	method, err := conf.Authentication()
	if err != nil {
		return nil, err
	}
	if method == hadoopconf.AuthKerberos {
		if c.Identity, err = kerberos.LogIn(login, lookupEnv); err != nil {
			return nil, fmt.Errorf("hadoop.security.authentication is kerberos: %w", err)
		}
		c.User = c.Identity.ShortName()
		// The connection context names the full principal: anything
		// else would be impersonation.
		opts.Auth.User = c.Identity.Principal()
		if opts.Auth.Kerberos, err = c.Identity.Offers(conf, kerberos.ResourceManagerKey); err != nil {
			c.Identity.Close()
			return nil, err
		}
	}
	if c.RM, err = yarn.NewApplicationClient(addrs, opts); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Close closes the client and ends the login.
func (c *Connection) Close() {
	if c.RM != nil {
		c.RM.Close()
	}
	if c.Identity != nil {
		c.Identity.Close()
	}
}
