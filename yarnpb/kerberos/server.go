package kerberos

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/sasl"
)

// The keys naming the principals of the servers Spindle dials with
// Kerberos.
const (
	ResourceManagerKey = "yarn.resourcemanager.principal"
	NameNodeKey        = "dfs.namenode.kerberos.principal"
)

// lookupTimeout bounds the reverse lookup that resolves _HOST.
const lookupTimeout = 5 * time.Second

// Offers returns what ipc.Auth.Kerberos calls with a server's KERBEROS
// offer: it checks the offered principal against key's setting in conf
// (or key.pattern), as Hadoop's SaslRpcClient does, gets a service ticket
// for it and starts a GSSAPI exchange allowing the qualities of protection
// of hadoop.rpc.protection.
func (id *Identity) Offers(conf *hadoopconf.Conf, key string) (func(*hadoopcommon.RpcSaslProto_SaslAuth, string) (sasl.Mechanism, error), error) {
	configured, _, err := conf.Lookup(key)
	if err != nil {
		return nil, err
	}
	pattern, _, err := conf.Lookup(key + ".pattern")
	if err != nil {
		return nil, err
	}
	protection, err := conf.RPCProtection()
	if err != nil {
		return nil, err
	}
	qops := make([]sasl.QOP, len(protection))
	for i, p := range protection {
		qops[i] = sasl.QOP(p)
	}
	configured, pattern = strings.TrimSpace(configured), strings.TrimSpace(pattern)
	return func(offer *hadoopcommon.RpcSaslProto_SaslAuth, addr string) (sasl.Mechanism, error) {
		host := canonicalHost(addr)
		server := sasl.OfferedPrincipal(offer.GetProtocol(), offer.GetServerId(), id.cl.Config.LibDefaults.DefaultRealm)
		if err := sasl.CheckServer(server, key, configured, pattern, host); err != nil {
			return nil, err
		}
		name, realm := splitPrincipal(server, id.cl.Config.LibDefaults.DefaultRealm)
		tkt, key, err := id.cl.GetServiceTicket(name)
		if err != nil {
			return nil, fmt.Errorf("kerberos: a ticket for %s: %s", server, explain(err, id.cl.Config, realm))
		}
		return sasl.NewGSSAPI(tkt, key, id.cl.Credentials.CName(), id.cl.Credentials.Realm(), qops)
	}, nil
}

// canonicalHost is the host name Hadoop puts for _HOST when dialing addr:
// InetAddress.getCanonicalHostName, the reverse lookup of the address (of
// a name's first IPv4 address, as Java resolves it); the host as given
// when there is none.
func canonicalHost(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
	defer cancel()
	ip := net.ParseIP(host)
	if ip == nil {
		ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
		if err != nil || len(ips) == 0 {
			return host
		}
		ip = ips[0].IP
		for _, a := range ips {
			if a.IP.To4() != nil {
				ip = a.IP
				break
			}
		}
	}
	names, err := net.DefaultResolver.LookupAddr(ctx, ip.String())
	if err != nil || len(names) == 0 {
		return host
	}
	return strings.TrimSuffix(names[0], ".")
}

// ServerPrincipal is the principal key's setting in conf names for the
// server at addr, with _HOST resolved as Hadoop resolves it
// (SecurityUtil.getServerPrincipal): what a client names as a delegation
// token's renewer, for instance.
func ServerPrincipal(conf *hadoopconf.Conf, key, addr string) (string, error) {
	configured, _, err := conf.Lookup(key)
	if err != nil {
		return "", err
	}
	if configured = strings.TrimSpace(configured); configured == "" {
		return "", fmt.Errorf("kerberos: %s is not set", key)
	}
	return sasl.ExpandHost(configured, canonicalHost(addr)), nil
}
