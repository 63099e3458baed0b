package yarnapp

import (
	"os"
	"os/user"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
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

// Connect reads the Hadoop configuration from the environment and returns a
// client for the ResourceManager(s) it names.
func Connect() (*yarn.ApplicationClient, *hadoopconf.Conf, error) {
	conf, err := hadoopconf.FromEnvironment(os.LookupEnv)
	if err != nil {
		return nil, nil, err
	}
	addrs, err := yarn.Addresses(conf, hadoopconf.RMAddress)
	if err != nil {
		return nil, nil, err
	}
	opts, err := yarn.ClientOptions(conf, User(os.LookupEnv))
	if err != nil {
		return nil, nil, err
	}
	rm, err := yarn.NewApplicationClient(addrs, opts)
	if err != nil {
		return nil, nil, err
	}
	return rm, conf, nil
}
