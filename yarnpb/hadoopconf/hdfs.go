package hadoopconf

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// defaultNameNodePort is the NameNode's RPC port when fs.defaultFS names
// none.
const defaultNameNodePort = "8020"

// NameNodes resolves an hdfs:// URI's authority as Hadoop's client does:
// an HA nameservice (dfs.ha.namenodes.<ns>) to its NameNodes' RPC
// addresses, in the order listed, and nameservice set to it; anything else
// to host:port, with the default port when none is given, and nameservice
// empty.
func (c *Conf) NameNodes(fsURI *url.URL) (addrs []string, nameservice string, err error) {
	host := fsURI.Hostname()
	if host == "" {
		return nil, "", fmt.Errorf("%s names no NameNode", fsURI)
	}
	ids, err := c.GetStrings("dfs.ha.namenodes." + host)
	if err != nil {
		return nil, "", err
	}
	if len(ids) == 0 {
		port := fsURI.Port()
		if port == "" {
			port = defaultNameNodePort
		}
		return []string{net.JoinHostPort(host, port)}, "", nil
	}
	addrs = make([]string, 0, len(ids))
	for _, id := range ids {
		key := "dfs.namenode.rpc-address." + host + "." + id
		addr, ok, err := c.Lookup(key)
		if err != nil {
			return nil, "", err
		}
		if !ok || strings.TrimSpace(addr) == "" {
			return nil, "", fmt.Errorf("nameservice %s lists NameNode %s but %s is not set", host, id, key)
		}
		addrs = append(addrs, strings.TrimSpace(addr))
	}
	return addrs, host, nil
}
