package yarn

import (
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/sasl"
)

// Addresses lists where conf says an RM service listens: one address, or
// one per ResourceManager under RM HA, in yarn.resourcemanager.ha.rm-ids
// order, which is the order clients fail over in.
func Addresses(conf *hadoopconf.Conf, service hadoopconf.RMService) ([]string, error) {
	endpoints, err := conf.RMAddresses(service)
	if err != nil {
		return nil, err
	}
	addrs := make([]string, len(endpoints))
	for i, e := range endpoints {
		addrs[i] = e.Address
	}
	return addrs, nil
}

// ClientOptions derives how a client acting as user authenticates from
// conf: hadoop.rpc.protection as the SASL qualities of protection token
// connections may use (a client offers only those, as Hadoop's does). It
// answers no Kerberos offer: a client that logged in sets Auth.Kerberos
// (package kerberos), and one that holds tokens (an ApplicationMaster)
// needs none.
func ClientOptions(conf *hadoopconf.Conf, user string) (ipc.Options, error) {
	if _, err := conf.Authentication(); err != nil {
		return ipc.Options{}, err
	}
	protection, err := conf.RPCProtection()
	if err != nil {
		return ipc.Options{}, err
	}
	qops := make([]sasl.QOP, len(protection))
	for i, p := range protection {
		qops[i] = sasl.QOP(p)
	}
	return ipc.Options{Auth: ipc.Auth{User: user, QOPs: qops}}, nil
}
